public import BridgeCore

extension Integration {
    /// LEGO EV3 bricks on stock firmware.
    public static let ev3: Integration = "ev3"
}

extension DeviceID {
    /// An EV3 brick, by its serial number.
    public static func ev3(serial: String) -> DeviceID { DeviceID(integration: .ev3, native: serial) }
}
