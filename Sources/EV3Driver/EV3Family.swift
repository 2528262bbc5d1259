public import BridgeConfig
public import BridgeCore

/// LEGO EV3 bricks: the `ev3` section and the driver.
public enum EV3Family: DeviceFamily {
    /// The family's device ids.
    public static let idForm = "ev3_<serial>"

    /// Builds the driver.
    public static func makeDriver(_ settings: EV3Settings, context: DriverContext) -> (any DeviceDriver)? {
        EV3Driver(settings: settings, configured: context.configured, sink: context.sink, logger: context.logger)
    }
}
