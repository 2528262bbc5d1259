/// How a scalar reads as null, a bool or a number: YAML 1.1's rules, as the config has always read them. Only plain
/// scalars resolve: a quoted `"null"`, `"true"` or `"3"` is text.
extension YAMLScalar {
    /// `~`, `null`, `Null`, `NULL` or nothing at all.
    var isNull: Bool {
        isPlain && ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// `true`/`yes`/`on` and `false`/`no`/`off`, each in lower case, capitalized or upper case.
    var bool: Bool? {
        guard isPlain else { return nil }
        switch text {
        case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON": return true
        case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF": return false
        default: return nil
        }
    }

    /// A whole number: signed, `_` between digits, `0x`, `0o`, `0b` or a leading `0` (octal), or sexagesimal `1:30`.
    func integer<T: FixedWidthInteger>(_: T.Type = T.self) -> T? {
        guard isPlain else { return nil }
        let written = text.filter { $0 != "_" }
        let negative = written.hasPrefix("-")
        guard T.isSigned || !negative else { return nil }
        let digits = written.dropFirst(negative || written.hasPrefix("+") ? 1 : 0)
        if digits == "0" { return 0 }
        let sign = negative ? "-" : ""
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where digits.hasPrefix(prefix) {
            return T(sign + digits.dropFirst(prefix.count), radix: radix)
        }
        if digits.contains(":") { return Self.sexagesimal(written) { T($0, radix: 10) } }
        return T(written, radix: 10)
    }

    /// A number: anything Swift reads as a `Double` once `_` is dropped, `.inf`, `-.inf`, `.nan`, or sexagesimal.
    func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_: T.Type = T.self) -> T? {
        guard isPlain else { return nil }
        switch text.lowercased() {
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        case ".nan": return .nan
        default:
            let written = text.filter { $0 != "_" }
            if written.contains(":") { return Self.sexagesimal(written) { T($0) } }
            return T(written)
        }
    }

    /// `1:30` as 90: base-60 digits, most significant first, with an optional sign.
    private static func sexagesimal<T: Numeric>(_ text: String, digit: (String) -> T?) -> T? {
        let negative = text.hasPrefix("-")
        let unsigned = text.dropFirst(negative || text.hasPrefix("+") ? 1 : 0)
        var value: T = 0
        for part in unsigned.split(separator: ":", omittingEmptySubsequences: false) {
            guard let digit = digit(String(part)) else { return nil }
            value = value * 60 + digit
        }
        return negative ? 0 - value : value
    }
}

/// A type a scalar resolves to; anything else decodes through its own `init(from:)`.
protocol ScalarValue {
    static func resolve(_ scalar: YAMLScalar) -> Self?
}

extension String: ScalarValue {
    static func resolve(_ scalar: YAMLScalar) -> String? { scalar.text }
}

extension Bool: ScalarValue {
    static func resolve(_ scalar: YAMLScalar) -> Bool? { scalar.bool }
}

extension Double: ScalarValue {
    static func resolve(_ scalar: YAMLScalar) -> Double? { scalar.floatingPoint() }
}

extension Float: ScalarValue {
    static func resolve(_ scalar: YAMLScalar) -> Float? { scalar.floatingPoint() }
}

extension FixedWidthInteger {
    static func resolve(_ scalar: YAMLScalar) -> Self? { scalar.integer() }
}

extension Int: ScalarValue {}
extension Int8: ScalarValue {}
extension Int16: ScalarValue {}
extension Int32: ScalarValue {}
extension Int64: ScalarValue {}
extension UInt: ScalarValue {}
extension UInt8: ScalarValue {}
extension UInt16: ScalarValue {}
extension UInt32: ScalarValue {}
extension UInt64: ScalarValue {}
