import BridgeConfig
import BridgeCore
import LIFXDriver
import Logging

/// Builds the drivers the config enables.
struct DriverFactory {
    let config: Configuration
    let sink: DeviceEventSink

    func makeDrivers() -> [any DeviceDriver] {
        var drivers: [any DeviceDriver] = []
        if config.lifx.enabled, let token = config.lifx.token {
            drivers.append(
                LIFXDriver(
                    client: LIFXClient(baseURL: config.lifx.apiURL, token: token), sink: sink,
                    options: LIFXDriverOptions(pollInterval: config.lifx.pollInterval.duration),
                    logger: Logger(label: "lifx")))
        }
        return drivers
    }
}
