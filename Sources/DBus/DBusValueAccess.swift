/// Typed reading of values. Every accessor looks through variants and returns nil (or throws a
/// `DBusTypeMismatch`) when the value has another type: received data is never converted or trusted.
extension DBusValue {
    /// The value with every variant layer removed.
    public var unwrapped: DBusValue {
        var value = self
        while case .variant(let inner) = value { value = inner }
        return value
    }

    /// The byte, if this is one.
    public var byte: UInt8? { if case .byte(let value) = unwrapped { value } else { nil } }
    /// The boolean, if this is one.
    public var bool: Bool? { if case .bool(let value) = unwrapped { value } else { nil } }
    /// The `n`, if this is one.
    public var int16: Int16? { if case .int16(let value) = unwrapped { value } else { nil } }
    /// The `q`, if this is one.
    public var uint16: UInt16? { if case .uint16(let value) = unwrapped { value } else { nil } }
    /// The `i`, if this is one.
    public var int32: Int32? { if case .int32(let value) = unwrapped { value } else { nil } }
    /// The `u`, if this is one.
    public var uint32: UInt32? { if case .uint32(let value) = unwrapped { value } else { nil } }
    /// The `x`, if this is one.
    public var int64: Int64? { if case .int64(let value) = unwrapped { value } else { nil } }
    /// The `t`, if this is one.
    public var uint64: UInt64? { if case .uint64(let value) = unwrapped { value } else { nil } }
    /// The double, if this is one.
    public var double: Double? { if case .double(let value) = unwrapped { value } else { nil } }
    /// The string, if this is a string (not an object path).
    public var string: String? { if case .string(let value) = unwrapped { value } else { nil } }
    /// The object path, if this is one.
    public var objectPath: String? { if case .objectPath(let value) = unwrapped { value } else { nil } }

    /// The bytes of an `ay`.
    public var bytes: [UInt8]? {
        switch unwrapped {
        case .bytes(let bytes): bytes
        case .array(let element, let items) where element.rawValue == "y":
            items.allSatisfy { $0.byte != nil } ? items.compactMap(\.byte) : nil
        default: nil
        }
    }

    /// The elements of an array (an `ay` as `.byte` values).
    public var array: [DBusValue]? {
        switch unwrapped {
        case .array(_, let items): items
        case .bytes(let bytes): bytes.map(DBusValue.byte)
        default: nil
        }
    }

    /// The entries of a dictionary, in the order received.
    public var entries: [DBusDictEntry]? { if case .dictionary(_, _, let entries) = unwrapped { entries } else { nil } }

    /// A dictionary keyed by strings or object paths (`a{sv}`, `a{oa{sa{sv}}}`), values without their variant
    /// layers; a later duplicate key wins.
    public var dictionary: [String: DBusValue]? {
        guard let entries else { return nil }
        var result: [String: DBusValue] = [:]
        result.reserveCapacity(entries.count)
        for entry in entries {
            guard let key = entry.key.string ?? entry.key.objectPath else { return nil }
            result[key] = entry.value.unwrapped
        }
        return result
    }

    /// The fields of a structure.
    public var structure: [DBusValue]? { if case .structure(let fields) = unwrapped { fields } else { nil } }

    /// The value under a string or object-path key of a dictionary, without its variant layers.
    public subscript(key: String) -> DBusValue? {
        entries?.last { $0.key.string == key || $0.key.objectPath == key }?.value.unwrapped
    }

    /// The value as a Swift type, or a mismatch naming both signatures and `context`.
    public func get<T: DBusDecodable>(_ type: T.Type = T.self, context: String = "value") throws(DBusTypeMismatch) -> T {
        let plain = unwrapped
        guard let result = T(dbusValue: plain) else {
            throw DBusTypeMismatch(expected: T.dbusSignature, actual: plain.signature, context: context)
        }
        return result
    }
}

/// A Swift type that a D-Bus value can be read into, strictly (no conversions between types).
public protocol DBusDecodable: Sendable {
    /// The D-Bus signature this type reads.
    static var dbusSignature: DBusSignature { get }
    /// Reads a value that has no variant layer left; nil when it has another type.
    init?(dbusValue: DBusValue)
}

extension UInt8: DBusDecodable {
    /// `y`.
    public static var dbusSignature: DBusSignature { "y" }
    /// Reads a byte.
    public init?(dbusValue: DBusValue) { guard let value = dbusValue.byte else { return nil }; self = value }
}

extension Bool: DBusDecodable {
    /// `b`.
    public static var dbusSignature: DBusSignature { "b" }
    /// Reads a boolean.
    public init?(dbusValue: DBusValue) { guard let value = dbusValue.bool else { return nil }; self = value }
}
