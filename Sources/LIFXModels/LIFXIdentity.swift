public import BridgeCore

extension Integration {
    /// LIFX cloud lights and groups.
    public static let lifx: Integration = "lifx"
}

extension DeviceID {
    /// A LIFX light, by its serial number.
    public static func lifx(light: String) -> DeviceID { DeviceID(integration: .lifx, native: light) }
    /// A LIFX group, by its group id.
    public static func lifx(group: String) -> DeviceID { DeviceID(integration: .lifx, native: "group_" + group) }
}
