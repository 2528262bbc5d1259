extension Int16: DBusDecodable {
    /// `n`.
    public static var dbusSignature: DBusSignature { "n" }
    /// Reads an `n`.
    public init?(dbusValue: DBusValue) { guard let value = dbusValue.int16 else { return nil }; self = value }
}

extension UInt16: DBusDecodable {
    /// `q`.
    public static var dbusSignature: DBusSignature { "q" }
    /// Reads a `q`.
    public init?(dbusValue: DBusValue) { guard let value = dbusValue.uint16 else { return nil }; self = value }
}

extension Int32: DBusDecodable {
    /// `i`.
    public static var dbusSignature: DBusSignature { "i" }
    /// Reads an `i`.
    public init?(dbusValue: DBusValue) { guard let value = dbusValue.int32 else { return nil }; self = value }
}

extension UInt32: DBusDecodable {
    /// `u`.
    public static var dbusSignature: DBusSignature { "u" }
    /// Reads a `u`.
    public init?(dbusValue: DBusValue) { guard let value = dbusValue.uint32 else { return nil }; self = value }
}

extension Int64: DBusDecodable {
    /// `x`.
    public static var dbusSignature: DBusSignature { "x" }
    /// Reads an `x`.
    public init?(dbusValue: DBusValue) { guard let value = dbusValue.int64 else { return nil }; self = value }
}

extension UInt64: DBusDecodable {
    /// `t`.
    public static var dbusSignature: DBusSignature { "t" }
    /// Reads a `t`.
    public init?(dbusValue: DBusValue) { guard let value = dbusValue.uint64 else { return nil }; self = value }
}

extension Double: DBusDecodable {
    /// `d`.
    public static var dbusSignature: DBusSignature { "d" }
    /// Reads a `d`.
    public init?(dbusValue: DBusValue) { guard let value = dbusValue.double else { return nil }; self = value }
}

extension String: DBusDecodable {
    /// `s`; object paths are read with `DBusValue.objectPath` instead.
    public static var dbusSignature: DBusSignature { "s" }
    /// Reads an `s`.
    public init?(dbusValue: DBusValue) { guard let value = dbusValue.string else { return nil }; self = value }
}

extension DBusValue: DBusDecodable {
    /// `v`: any value is accepted as it is.
    public static var dbusSignature: DBusSignature { "v" }
    /// Keeps the value.
    public init?(dbusValue: DBusValue) { self = dbusValue }
}

extension Array: DBusDecodable where Element: DBusDecodable {
    /// `a` and the element's signature.
    public static var dbusSignature: DBusSignature { DBusSignature("a" + Element.dbusSignature.rawValue) }

    /// Reads an array whose every element reads as `Element`; one element of another type fails the whole array.
    public init?(dbusValue: DBusValue) {
        guard let items = dbusValue.array else { return nil }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for item in items {
            guard let element = Element(dbusValue: item.unwrapped) else { return nil }
            result.append(element)
        }
        self = result
    }
}

extension Dictionary: DBusDecodable where Key: DBusDecodable, Value: DBusDecodable {
    /// `a{kv}` from the key's and value's signatures.
    public static var dbusSignature: DBusSignature {
        DBusSignature("a{" + Key.dbusSignature.rawValue + Value.dbusSignature.rawValue + "}")
    }

    /// Reads a dictionary whose every key and value read as `Key` and `Value`; a later duplicate key wins.
    public init?(dbusValue: DBusValue) {
        guard let entries = dbusValue.entries else { return nil }
        var result: [Key: Value] = [:]
        for entry in entries {
            guard let key = Key(dbusValue: entry.key.unwrapped), let value = Value(dbusValue: entry.value.unwrapped)
            else { return nil }
            result[key] = value
        }
        self = result
    }
}
