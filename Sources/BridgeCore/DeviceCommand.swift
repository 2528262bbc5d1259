/// A command for one device, already validated against what the device exposes.
public enum DeviceCommand: Sendable, Equatable {
    /// Change state: the light part (if the device is a light) and any other writable attributes.
    case set(SetCommand)
    /// Re-read these properties from the device; empty means everything.
    case refresh([String])
}

/// The validated content of a `/set` message.
public struct SetCommand: Sendable, Equatable {
    /// The light change, for devices with a light.
    public var light: LightCommand?
    /// Writable attributes other than the light's, keyed by property.
    public var attributes: [String: JSONValue]

    /// Creates a set command.
    public init(light: LightCommand? = nil, attributes: [String: JSONValue] = [:]) {
        self.light = light
        self.attributes = attributes
    }
}

/// Where a message on a device topic is headed.
public struct CommandTopic: Sendable, Equatable {
    /// `set` or `get`.
    public enum Verb: String, Sendable { case set, get }

    /// The device alias (may contain `/`).
    public var alias: String
    public var verb: Verb
    /// The attribute named after the verb, as in `/set/brightness`.
    public var attribute: String?

    /// Splits `<base>/<alias>/(set|get)[/<attribute>]`; nil for any other topic, bridge topics included.
    public static func parse(_ topic: String, base: String) -> CommandTopic? {
        guard topic.hasPrefix(base + "/") else { return nil }
        let rest = topic.dropFirst(base.count + 1)
        let segments = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.first != "bridge" else { return nil }
        for index in segments.indices.dropFirst() {
            guard let verb = Verb(rawValue: segments[index]) else { continue }
            let tail = segments[(index + 1)...]
            guard tail.count <= 1, tail.first != "" else { return nil }
            let alias = segments[..<index].joined(separator: "/")
            guard !alias.isEmpty else { return nil }
            return CommandTopic(alias: alias, verb: verb, attribute: tail.first)
        }
        return nil
    }
}

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
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            if features != nil, LightCommand.keys.contains(key) {
                lightFields[key] = value
            } else if features == nil, key == "state", device.switchable {
                command.attributes[key] = .string(try LightCommand.parsePower(value).rawValue)
            } else {
                command.attributes[key] = try validateAttribute(key, value, device: device)
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

    private static func validateAttribute(_ key: String, _ value: JSONValue, device: DeviceDescriptor)
        throws(CommandError) -> JSONValue
    {
        try validate(key, value, among: device.exposes, path: [], lightKeys: true)
    }

    /// Validates one key of a `/set` object against the exposes at that level: the device's, or a composite's
    /// features, whose values are objects validated key by key in turn. `path` leads to the level, for messages.
    private static func validate(
        _ key: String, _ value: JSONValue, among exposes: [Expose], path: [String], lightKeys: Bool
    ) throws(CommandError) -> JSONValue {
        let name = (path + [key]).joined(separator: ".")
        let candidates = exposes.filter { $0.property == key && $0.isWritable }
        guard let expose = candidates.first else {
            let writable = Set(exposes.filter(\.isWritable).flatMap { expose in
                expose.kind == .light && lightKeys ? Array(LightCommand.keys) : [(path + [expose.property]).joined(separator: ".")]
            }).sorted()
            let list = writable.isEmpty ? "none" : writable.joined(separator: ", ")
            throw CommandError("unknown or read-only attribute \"\(name)\" (writable: \(list))")
        }
        switch expose.kind {
        case .numeric:
            let range = (expose.minimum ?? -Double.greatestFiniteMagnitude)...(expose.maximum ?? .greatestFiniteMagnitude)
            return .number(try LightCommand.number(value, name, in: range))
        case .binary:
            let text = value.stringValue ?? value.boolValue.map { $0 ? expose.valueOn ?? "ON" : expose.valueOff ?? "OFF" }
            guard let text, [expose.valueOn, expose.valueOff, "TOGGLE"].contains(text) else {
                throw CommandError("\(name) must be \(expose.valueOn ?? "ON"), \(expose.valueOff ?? "OFF") or TOGGLE")
            }
            return .string(text)
        case .enumeration, .action, .scene:
            let allowed = candidates.flatMap(\.values)
            guard let text = value.stringValue, allowed.contains(text) else {
                throw CommandError("\(name) must be one of \(allowed.joined(separator: ", ")), not \(value.brief)")
            }
            return .string(text)
        case .text:
            guard case .string = value else { throw CommandError("\(name) must be a string") }
            return value
        case .composite:
            guard case .object(let fields) = value else {
                let example = expose.features.first(where: \.isWritable)?.property ?? "…"
                throw CommandError("\(name) must be an object such as {\"\(example)\": …}, not \(value.brief)")
            }
            guard !fields.isEmpty else { throw CommandError("nothing to set in \(name)") }
            var result: [String: JSONValue] = [:]
            for (inner, innerValue) in fields.sorted(by: { $0.key < $1.key }) {
                result[inner] = try validate(inner, innerValue, among: expose.features, path: path + [key], lightKeys: false)
            }
            return .object(result)
        case .light, .event:
            throw CommandError("\(name) is not an attribute")
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and newlines.
    public var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars = scalars.dropFirst() }
        while let last = scalars.last, last.isWhitespace { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
