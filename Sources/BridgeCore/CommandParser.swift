/// Turns `/set` and `/get` payloads into typed commands: the one place where device input is parsed.
public enum CommandParser {
    /// Parses a payload sent to `<alias>/set` or `<alias>/set/<attribute>` for this device.
    public static func parseSet(payload: [UInt8], attribute: String?, device: DeviceDescriptor) throws(CommandError)
        -> SetCommand
    {
        let json = try JSONValue.commandPayload(payload)
        let text = String(decoding: payload, as: UTF8.self).trimmingWhitespace
        var fields: [String: JSONValue]
        if let attribute {
            guard !text.isEmpty else { throw CommandError("empty value for \(attribute)") }
            fields = [attribute: json ?? .string(text)]
        } else if let power = LightCommand.Power(rawValue: text.uppercased()) {
            guard device.switchable else { throw CommandError("this device cannot be switched \(power.rawValue)") }
            fields = ["state": .string(power.rawValue)]
        } else if let object = json?.objectValue {
            fields = object
        } else if text.isEmpty {
            throw CommandError("empty payload; send a JSON object such as {\"state\":\"ON\"}")
        } else {
            throw CommandError("payload is not a JSON object: \(String(text.prefix(80)))")
        }
        return try validate(fields, device: device)
    }

    /// Parses a payload sent to `<alias>/get` or `<alias>/get/<attribute>`.
    public static func parseGet(payload: [UInt8], attribute: String?, device: DeviceDescriptor) throws(CommandError)
        -> [String]
    {
        if let attribute { return [attribute] }
        let json = try JSONValue.commandPayload(payload)
        if json == nil, String(decoding: payload, as: UTF8.self).trimmingWhitespace.isEmpty { return [] }
        guard let object = json?.objectValue else {
            throw CommandError("get payload must be a JSON object such as {\"state\":\"\"}")
        }
        return object.keys.sorted()
    }

    /// Splits fields into the light command and validated attribute writes.
    static func validate(_ fields: [String: JSONValue], device: DeviceDescriptor) throws(CommandError) -> SetCommand {
        var command = SetCommand()
        var lightFields: [String: JSONValue] = [:]
        let features = device.lightFeatures
        for (key, value) in expandingLeafKeys(fields, device: device).sorted(by: { $0.key < $1.key }) {
            if features != nil, LightCommand.keys.contains(key) {
                lightFields[key] = value
            } else if features == nil, key == "state", device.switchable {
                command.attributes[key] = .string(try LightCommand.parsePower(value).rawValue)
            } else {
                command.attributes[key] = try validate(key, value, among: device.exposes, path: [], lightKeys: true)
            }
        }
        if let features, !lightFields.isEmpty {
            command.light = try LightCommand.parse(lightFields, features: features)
        }
        if command.light?.isEmpty ?? true, command.attributes.isEmpty {
            throw CommandError("nothing to set")
        }
        return command
    }
}
