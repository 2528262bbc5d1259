public import BridgeCore
public import Support

extension Integration {
    /// Bluetooth Low Energy devices through BlueZ.
    public static let ble: Integration = "ble"
}

extension DeviceID {
    /// A BLE device, by its MAC address (colons dropped).
    public static func ble(mac: String) -> DeviceID { DeviceID(integration: .ble, native: mac) }
}

extension BluetoothAddress {
    /// The bridge's id for the BLE device at this address, e.g. `ble_aabbccddeeff`.
    public var deviceID: DeviceID { .ble(mac: description) }
}
