import BridgeConfig
import BridgeCore
import Logging

/// Builds the drivers the config enables.
struct DriverFactory {
    let config: Configuration
    let sink: DeviceEventSink

    func makeDrivers() -> [any DeviceDriver] {
        []
    }
}
