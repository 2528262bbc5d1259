public import BridgeCore

/// Which BLE devices become MQTT devices. Phones, watches and beacons rotate random addresses, so a device
/// is published only for a reason; everything else is counted in `IgnoredAddresses`.
public enum DeviceAdmission {
    /// Why a device is published.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// A `ble.connect` rule matches it (any policy, `never` included).
        case rule
        /// It is listed under `devices:`.
        case configured
        /// It is in the remembered set.
        case remembered
        /// It was seen while a permit window was open.
        case permitted
    }

    /// The first reason to publish the device, or nil to ignore it. `permitting`: the permit window is open; the
    /// caller keeps a device once admitted, so the window only has to be open when it is first seen.
    public static func reason(
        for device: KnownDevice, rules: ConnectRules, configured: Set<DeviceID>, permitting: Bool
    ) -> Reason? {
        if rules.rule(for: device) != nil { return .rule }
        if configured.contains(device.address.deviceID) { return .configured }
        if device.remembered { return .remembered }
        if permitting { return .permitted }
        return nil
    }
}
