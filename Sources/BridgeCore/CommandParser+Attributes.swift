/// Attribute values of a `/set`, validated against the exposes: flat ones, and nested ones leaf by leaf.
///
/// Three short forms stand for the nested object they mean, for every family alike:
/// - a writable leaf's object id as a top-level key: `{"port_2_mode": "color"}` (and `/set/port_2_mode`) is
///   `{"port_2": {"mode": "color"}}`, as Home Assistant names the entity;
/// - the payload of one of a composite's actions in place of its object: `{"motor_a": "stop"}` is
///   `{"motor_a": {"stop": "stop"}}`;
/// - `true` for an action's payload: `{"stop": true}` presses the `stop` action.
extension CommandParser {
    /// Replaces top-level keys that name a writable leaf by its object id (and are no top-level property) with
    /// what they stand for: the nested object for a leaf inside composites, merged with any object already
    /// given for the same composite; the property for a top-level expose with an object id of its own.
    static func expandingLeafKeys(_ fields: [String: JSONValue], device: DeviceDescriptor) -> [String: JSONValue] {
        let properties = Set(device.exposes.map(\.property))
        let lightKeys = device.lightFeatures != nil ? LightCommand.keys : []
        let aliases = fields.keys.filter { !properties.contains($0) && !lightKeys.contains($0) && $0 != "state" }
        guard !aliases.isEmpty else { return fields }
        let leaves = device.leaves.filter { $0.expose.isWritable && ($0.isNested || $0.objectID != $0.path[0]) }
        var result = fields
        for key in aliases {
            guard let leaf = leaves.first(where: { $0.objectID == key }), let value = result.removeValue(forKey: key)
            else { continue }
            let nested = leaf.path.dropFirst().reversed().reduce(value) { inner, step in .object([step: inner]) }
            let top = leaf.path[0]
            if case .object(let given)? = result[top], case .object(let added) = nested {
                result[top] = .object(given.deepMerging(added))
            } else if result[top] == nil {
                result[top] = nested
            }
        }
        return result
    }

    /// Validates one key of a `/set` object against the exposes at that level: the device's, or a composite's
    /// features, whose values are objects validated key by key in turn. `path` leads to the level, for messages.
    static func validate(
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
        case .action where value == .bool(true):
            return .string(expose.values.first ?? "")
        case .enumeration, .action, .scene:
            let allowed = candidates.flatMap(\.values)
            guard let text = value.stringValue, allowed.contains(text) else {
                let orTrue = expose.kind == .action ? " (or true)" : ""
                throw CommandError("\(name) must be one of \(allowed.joined(separator: ", "))\(orTrue), not \(value.brief)")
            }
            return .string(text)
        case .text:
            guard case .string(let text) = value else { throw CommandError("\(name) must be a string") }
            let length = text.count
            if let maximum = expose.maximum, Double(length) > maximum {
                throw CommandError("\(name) is \(length) characters long, more than \(Int(maximum))")
            }
            if let minimum = expose.minimum, Double(length) < minimum {
                throw CommandError("\(name) is \(length) characters long, fewer than \(Int(minimum))")
            }
            return value
        case .composite:
            return try validateComposite(expose, value, name: name, path: path + [key])
        case .light, .event:
            throw CommandError("\(name) is not an attribute")
        }
    }

    private static func validateComposite(
        _ expose: Expose, _ value: JSONValue, name: String, path: [String]
    ) throws(CommandError) -> JSONValue {
        let fields: [String: JSONValue]
        if case .object(let object) = value {
            fields = object
        } else if case .string(let text) = value,
            let action = expose.features.first(where: { $0.kind == .action && $0.values.contains(text) })
        {
            // The payload of one of the composite's own actions stands for pressing it.
            fields = [action.property: value]
        } else {
            let example = expose.features.first(where: \.isWritable)?.property ?? "…"
            let actions = expose.features.filter { $0.kind == .action }.flatMap(\.values).map { "\"\($0)\"" }
            let shorthand = actions.isEmpty ? "" : " or one of \(actions.joined(separator: ", "))"
            throw CommandError("\(name) must be an object such as {\"\(example)\": …}\(shorthand), not \(value.brief)")
        }
        guard !fields.isEmpty else { throw CommandError("nothing to set in \(name)") }
        var result: [String: JSONValue] = [:]
        for (inner, innerValue) in fields.sorted(by: { $0.key < $1.key }) {
            result[inner] = try validate(inner, innerValue, among: expose.features, path: path, lightKeys: false)
        }
        return .object(result)
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// Merges `other` in, objects under the same key merged level by level, `other` winning elsewhere.
    func deepMerging(_ other: [String: JSONValue]) -> [String: JSONValue] {
        var result = self
        for (key, value) in other {
            if case .object(let mine)? = result[key], case .object(let theirs) = value {
                result[key] = .object(mine.deepMerging(theirs))
            } else {
                result[key] = value
            }
        }
        return result
    }
}
