/// One D-Bus value with enough type information to write it back: arrays and dictionaries carry their
/// element signatures, so an empty one still has a type.
public indirect enum DBusValue: Hashable, Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(DBusSignature)
    /// `ay`, read and written as one block; received byte arrays always arrive in this form.
    case bytes([UInt8])
    /// An array whose elements have the given signature (not `y`, which is `.bytes`, nor a dictionary entry).
    case array(DBusSignature, [DBusValue])
    /// `a{kv}`, in the order received; keys are basic values.
    case dictionary(key: DBusSignature, value: DBusSignature, [DBusDictEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's own signature, used when a call is written without an explicit one.
    public var signature: DBusSignature { DBusSignature(signatureText) }

    var signatureText: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .bytes: "ay"
        case .array(let element, _): "a" + element.rawValue
        case .dictionary(let key, let value, _): "a{" + key.rawValue + value.rawValue + "}"
        case .structure(let fields): "(" + fields.map(\.signatureText).joined() + ")"
        case .variant: "v"
        }
    }

    /// An `a{sv}` ("vardict") with keys in sorted order; values that are not variants yet are wrapped.
    public static func vardict(_ entries: [String: DBusValue]) -> DBusValue {
        let sorted = entries.sorted { $0.key < $1.key }.map { key, value in
            DBusDictEntry(key: .string(key), value: value.isVariant ? value : .variant(value))
        }
        return .dictionary(key: "s", value: "v", sorted)
    }

    /// An `as`.
    public static func strings(_ values: [String]) -> DBusValue { .array("s", values.map(DBusValue.string)) }

    /// An `ao`.
    public static func objectPaths(_ values: [String]) -> DBusValue { .array("o", values.map(DBusValue.objectPath)) }

    var isVariant: Bool {
        if case .variant = self { return true }
        return false
    }
}

/// One entry of a D-Bus dictionary.
public struct DBusDictEntry: Hashable, Sendable {
    /// The key, a basic value.
    public var key: DBusValue
    /// The value.
    public var value: DBusValue

    /// Creates an entry.
    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}
