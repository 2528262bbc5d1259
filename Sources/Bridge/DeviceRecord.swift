import BridgeConfig
import BridgeCore
import Support

/// What the bridge holds for one device.
struct DeviceRecord {
    var descriptor: DeviceDescriptor
    var alias: String
    var state: [String: JSONValue] = [:]
    var status: DeviceStatus?
    var settings: DeviceSettings
    /// In a cluster: this bridge may not connect the device (another owns it, none does yet, or the previous owner
    /// has not let it go); the driver holds it down. Every device starts so in a cluster, as its driver does.
    var held = false

    var id: DeviceID { descriptor.id }

    /// The name Home Assistant shows for the device: the alias when one was chosen (in the config or by a
    /// rename), else the device's own name (`label`), else the id. An alias equal to the id counts as none,
    /// because every device starts with its id as alias and the id means nothing to a person.
    var homeAssistantName: String {
        if alias != id.rawValue { return alias }
        if let label = descriptor.label?.trimmingWhitespace(), !label.isEmpty { return label }
        return id.rawValue
    }

    /// The `bridge/devices` entry.
    func inventoryJSON(remembered: Bool) -> JSONValue {
        var entry: [String: JSONValue] = [
            "id": .string(id.rawValue), "alias": .string(alias), "integration": .string(id.integration.rawValue),
            "kind": .string(descriptor.kind), "manufacturer": .string(descriptor.manufacturer),
            "model": .string(descriptor.model),
            "status": .string(status.map { $0.isOnline ? "online" : "offline" } ?? "unknown"),
            "device_status": status.map { .string($0.rawValue) } ?? .null,
            "switchable": .bool(descriptor.switchable),
            "exposes": .array(descriptor.exposes.map(\.json)),
        ]
        if let label = descriptor.label { entry["label"] = .string(label) }
        if remembered { entry["remembered"] = true }
        if let firmware = descriptor.softwareVersion { entry["firmware"] = .string(firmware) }
        if let hardware = descriptor.hardwareVersion { entry["hardware"] = .string(hardware) }
        if !descriptor.details.isEmpty { entry["details"] = .object(descriptor.details) }
        if let modelID = descriptor.modelID { entry["model_id"] = .string(modelID) }
        if case .disabled = settings.homeassistant { entry["homeassistant"] = .bool(false) }
        return .object(entry)
    }
}
