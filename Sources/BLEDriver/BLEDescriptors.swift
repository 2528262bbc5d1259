public import BLEModels
public import BridgeCore
public import BLEFormats
public import Support

/// The descriptors BLE devices get: what `bridge/devices` and Home Assistant show for them.
public enum BLEDescriptors {
    /// A BLE device: signal, RSSI and last seen as diagnostic entities (the first two disabled by default, as
    /// zigbee2mqtt does for link quality); a Nova flash is also a light.
    public static func device(
        id: DeviceID, address: BluetoothAddress, name: String?, services: [BLEUUID], adapter: String? = nil
    ) -> DeviceDescriptor {
        var details: [String: JSONValue] = ["address": .string(address.description)]
        if !services.isEmpty { details["services"] = .array(services.map { .string($0.description) }) }
        if let adapter { details["adapter"] = .string(adapter) }
        var signal = Expose.numeric("signal", name: "Signal", unit: nil, range: 0...1, category: .diagnostic)
        signal.enabledByDefault = false
        var rssi = Expose.numeric(
            "rssi", name: "RSSI", unit: "dBm", deviceClass: "signal_strength", stateClass: "measurement", category: .diagnostic)
        rssi.enabledByDefault = false
        let descriptor = DeviceDescriptor(
            id: id, kind: "ble", manufacturer: "Bluetooth LE", model: name ?? "BLE device",
            connections: [["mac", address.description.lowercased()]], label: name,
            exposes: [signal, rssi, .text("last_seen", name: "Last seen", category: .diagnostic)],
            details: details)
        return isNova(name: name, services: Set(services)) ? nova(descriptor) : descriptor
    }

    /// Whether a device is a Nova flash: named `Nova` and advertising service FFF0.
    static func isNova(name: String?, services: Set<BLEUUID>) -> Bool {
        name == "Nova" && services.contains { $0.description.hasPrefix("0000fff0-") }
    }

    /// The descriptor of a Nova: a JSON light with the presets as effects and a `timeout` attribute.
    static func nova(_ base: DeviceDescriptor) -> DeviceDescriptor {
        var descriptor = base
        descriptor.kind = "light"
        descriptor.manufacturer = "Nova"
        descriptor.model = "Nova flash"
        descriptor.exposes = NovaLight.exposes + base.exposes
        descriptor.switchable = true
        return descriptor
    }

    /// The sensor or event a decoded quantity becomes; nil for what is state only (lists).
    public static func expose(_ quantity: Quantity) -> Expose? {
        let category: Expose.Category? = quantity.diagnostic ? .diagnostic : nil
        switch quantity.kind {
        case .numeric:
            return .numeric(
                quantity.key, name: quantity.name, unit: quantity.unit, deviceClass: quantity.deviceClass,
                stateClass: quantity.stateClass, category: category)
        case .binary:
            return .binary(
                quantity.key, name: quantity.name, on: quantity.inverted ? "OFF" : "ON", off: quantity.inverted ? "ON" : "OFF",
                deviceClass: quantity.deviceClass, category: category)
        case .text:
            return .text(quantity.key, name: quantity.name, category: category)
        case .event(let types):
            return .event(
                quantity.key, name: quantity.name, types: types, deviceClass: quantity.deviceClass, category: category)
        case .list:
            return nil
        }
    }

    /// The raw values of subscribed characteristics: one text sensor each under `gatt`, keyed by the full UUID
    /// as the state has them (the object id swaps the UUID's dashes for underscores).
    public static func gatt(_ characteristics: [BLEUUID]) -> Expose {
        .composite(
            "gatt", name: "GATT",
            features: characteristics.map { uuid in
                var leaf = Expose.text(uuid.description, name: GATTNames.characteristic(uuid) ?? "Characteristic \(uuid)")
                leaf.objectID = String(uuid.description.map { $0 == "-" ? "_" : $0 })
                return leaf
            })
    }

    /// The model shown for a passive sensor of a format.
    static func model(of format: PassiveFormat) -> String {
        switch format {
        case .bthome: "BTHome sensor"
        case .atc: "Thermometer (atc1441 firmware)"
        case .pvvx: "Thermometer (pvvx firmware)"
        case .xiaomi: "Xiaomi sensor (MiBeacon)"
        case .switchbot: "SwitchBot sensor"
        case .govee: "Govee thermo-hygrometer"
        case .oralb: "Oral-B toothbrush"
        case .thermopro: "ThermoPro hygrometer"
        case .inkbird: "Inkbird thermometer"
        case .ruuvi: "RuuviTag"
        case .user: "Custom sensor"
        case .ibeacon: "iBeacon"
        case .eddystone: "Eddystone beacon"
        }
    }
}
