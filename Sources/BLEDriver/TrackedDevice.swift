public import BLEModels
public import BridgeCore
import BlueZ

/// What the driver keeps for a device it publishes.
struct TrackedDevice {
    let id: DeviceID
    let address: BLEAddress
    var window = SignalWindow()
    /// The status last reported; nil until the first, so availability is known from the start.
    var status: DeviceStatus?
    /// The signal last published (two decimals): policies are reviewed when it moves, not on every advert.
    var signal: Double?
    var descriptor: DeviceDescriptor?
    var name: String?
    var services: Set<BLEUUID> = []
    /// The GATT tree as `bridge/devices` lists it, once known.
    var gatt: JSONValue?

    /// The descriptor with the GATT tree in its details, when it is known.
    func withGatt(_ descriptor: DeviceDescriptor) -> DeviceDescriptor {
        guard let gatt else { return descriptor }
        var updated = descriptor
        updated.details["gatt"] = gatt
        return updated
    }

    /// The device's MQTT descriptor: identity and the signal entities every BLE device has.
    static func descriptor(for device: BlueZDevice, id: DeviceID, address: BLEAddress) -> DeviceDescriptor {
        BLEDescriptors.device(
            id: id, address: address, name: device.name ?? device.alias, services: device.services, adapter: device.adapter)
    }
}

/// The descriptors BLE devices get: what `bridge/devices` and Home Assistant show for them.
public enum BLEDescriptors {
    /// A BLE device: signal, RSSI and last seen as diagnostic entities; a Nova flash is also a light.
    public static func device(
        id: DeviceID, address: BLEAddress, name: String?, services: [BLEUUID], adapter: String? = nil
    ) -> DeviceDescriptor {
        var details: [String: JSONValue] = ["address": .string(address.description)]
        if !services.isEmpty { details["services"] = .array(services.map { .string($0.description) }) }
        if let adapter { details["adapter"] = .string(adapter) }
        let descriptor = DeviceDescriptor(
            id: id, kind: "ble", manufacturer: "Bluetooth LE", model: name ?? "BLE device",
            connections: [["mac", address.description.lowercased()]], label: name,
            exposes: [
                .numeric("signal", name: "Signal", unit: nil, range: 0...1, category: .diagnostic),
                .numeric("rssi", name: "RSSI", unit: "dBm", deviceClass: "signal_strength", stateClass: "measurement", category: .diagnostic),
                .text("last_seen", name: "Last seen", category: .diagnostic),
            ],
            details: details)
        return NovaSession.isNova(name: name, services: Set(services)) ? NovaSession.descriptor(descriptor) : descriptor
    }
}
