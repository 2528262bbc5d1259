import BridgeConfig
import BridgeCore
import BLEDriver
import EV3Driver
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
        if config.ble.enabled {
            drivers.append(
                BLEDriver(
                    settings: config.ble, configured: Set(config.devices.keys.filter { $0.integration == .ble }), sink: sink,
                    logger: Logger(label: "ble")))
        }
        if config.ev3.enabled {
            drivers.append(EV3Driver(settings: config.ev3, sink: sink, logger: Logger(label: "ev3")))
        }
        return drivers
    }
}
