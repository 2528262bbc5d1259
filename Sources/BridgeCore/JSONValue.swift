/// A JSON document held as a value: the lingua franca of MQTT payloads, device state and config overrides.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue: Codable {
    /// Decodes any JSON (or YAML) scalar, sequence or mapping; for config files, not payloads, as it
    /// tries each kind in turn at every level.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes whole numbers without a fraction so `128` never becomes `128.0`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// Parses a payload within `JSONLimits.payload`; nil when it is not JSON or is refused.
    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        try? parse(bytes, limits: .payload)
    }

    /// The wrapped object, if this is one.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The wrapped string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The wrapped number, if this is one.
    public var doubleValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The wrapped Boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// Looks up a key of an object; nil for other kinds.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// A short, human-readable rendering for error messages.
    public var brief: String {
        switch self {
        case .string(let value): "\"\(value)\""
        default: jsonString
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer literal.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A Boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A dictionary literal.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// Overlays `other` onto this object; a `null` in `other` removes the key.
    public func merging(overlay other: [String: JSONValue]) -> [String: JSONValue] {
        var result = self
        for (key, value) in other {
            if value == .null { result[key] = nil } else { result[key] = value }
        }
        return result
    }

    /// Overlays a state change onto a state: an object merges into the object already under its key, level
    /// by level (so `{"motor_a": {"speed": 20}}` keeps `motor_a.position`), and a `null` at any level
    /// removes that key.
    public func merging(state change: [String: JSONValue]) -> [String: JSONValue] {
        var result = self
        for (key, value) in change {
            switch (result[key], value) {
            case (_, .null): result[key] = nil
            case (.object(let current)?, .object(let inner)): result[key] = .object(current.merging(state: inner))
            case (_, .object(let inner)): result[key] = .object([:].merging(state: inner))
            default: result[key] = value
            }
        }
        return result
    }

    /// Composes two state changes into one with the effect of applying both in turn: nested objects compose
    /// level by level, and a `null` is kept, so it still removes the key when the result is applied. Nil when
    /// no single change has that effect: an object after a `null` or a scalar under the same key would merge
    /// into what the earlier change removed or replaced.
    public func composing(stateChange later: [String: JSONValue]) -> [String: JSONValue]? {
        var result = self
        for (key, value) in later {
            switch (result[key], value) {
            case (.object(let earlier)?, .object(let inner)):
                guard let composed = earlier.composing(stateChange: inner) else { return nil }
                result[key] = .object(composed)
            case (_?, .object): return nil
            default: result[key] = value
            }
        }
        return result
    }
}
