public import BridgeCore
public import Support

extension BluetoothAddress {
    /// The bridge's id for the BLE device at this address, e.g. `ble_aabbccddeeff`.
    public var deviceID: DeviceID { .ble(mac: description) }
}
