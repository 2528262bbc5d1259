/// A D-Bus type signature such as `a{sv}`: one or more complete types, checked when it is used.
public struct DBusSignature: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The signature text.
    public let rawValue: String

    /// Wraps a signature text; `types()` checks it.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Wraps a literal signature.
    public init(stringLiteral value: String) { self.init(value) }

    /// The signature text.
    public var description: String { rawValue }

    /// The complete types it lists, or an `.invalidArgument` error saying what is malformed.
    func types() throws(DBusError) -> [DBusType] { try DBusType.parse(rawValue) }
}

/// One complete D-Bus type, parsed from a signature.
indirect enum DBusType: Hashable, Sendable {
    case byte, bool, int16, uint16, int32, uint32, int64, uint64, double, string, objectPath, signature, unixFD
    case array(DBusType)
    case dictionary(key: DBusType, value: DBusType)
    case structure([DBusType])
    case variant

    private static let basics: [UInt8: DBusType] = [
        UInt8(ascii: "y"): .byte, UInt8(ascii: "b"): .bool, UInt8(ascii: "n"): .int16, UInt8(ascii: "q"): .uint16,
        UInt8(ascii: "i"): .int32, UInt8(ascii: "u"): .uint32, UInt8(ascii: "x"): .int64, UInt8(ascii: "t"): .uint64,
        UInt8(ascii: "d"): .double, UInt8(ascii: "s"): .string, UInt8(ascii: "o"): .objectPath,
        UInt8(ascii: "g"): .signature, UInt8(ascii: "h"): .unixFD,
    ]

    /// The code of each basic type, the one table both directions use.
    private static let codes: [DBusType: String] = Dictionary(
        uniqueKeysWithValues: basics.map { ($0.value, String(UnicodeScalar($0.key))) })

    /// The type's signature text.
    var signature: String {
        switch self {
        case .array(let element): "a" + element.signature
        case .dictionary(let key, let value): "a{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        default: Self.codes[self] ?? "?"
        }
    }

    /// Whether this is a basic type, the only kind allowed as a dictionary key.
    var isBasic: Bool {
        switch self {
        case .array, .dictionary, .structure, .variant: false
        default: true
        }
    }

    /// Parses a signature into its complete types, enforcing the specification's limits (255 bytes, 32 nested
    /// arrays, 32 nested structures), so nothing malformed ever reaches libdbus, which aborts on bad input.
    static func parse(_ text: String) throws(DBusError) -> [DBusType] {
        var parser = SignatureParser(bytes: Array(text.utf8), text: text)
        guard parser.bytes.count <= 255 else { throw parser.failure("is longer than 255 bytes") }
        var types: [DBusType] = []
        while !parser.atEnd { types.append(try parser.parseOne(arrays: 0, structures: 0)) }
        return types
    }

    /// Parses a signature that must hold exactly one complete type.
    static func parseSingle(_ text: String) throws(DBusError) -> DBusType {
        let types = try parse(text)
        guard types.count == 1, let only = types.first else {
            let problem = "signature \"\(text)\" is not one complete type"
            throw DBusError(.invalidArgument, problem, operation: "parse signature")
        }
        return only
    }

    private struct SignatureParser {
        let bytes: [UInt8]
        let text: String
        var index = 0

        var atEnd: Bool { index >= bytes.count }

        func failure(_ problem: String) -> DBusError {
            DBusError(.invalidArgument, "signature \"\(text)\" \(problem)", operation: "parse signature")
        }

        mutating func next() throws(DBusError) -> UInt8 {
            guard index < bytes.count else { throw failure("ends inside a container") }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func parseOne(arrays: Int, structures: Int) throws(DBusError) -> DBusType {
            let code = try next()
            if let basic = DBusType.basics[code] { return basic }
            switch code {
            case UInt8(ascii: "v"): return .variant
            case UInt8(ascii: "a"):
                guard arrays < 32 else { throw failure("nests more than 32 arrays") }
                guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
                    return .array(try parseOne(arrays: arrays + 1, structures: structures))
                }
                index += 1
                guard structures < 32 else { throw failure("nests more than 32 structures") }
                let key = try parseOne(arrays: arrays + 1, structures: structures + 1)
                guard key.isBasic else { throw failure("has a dictionary key that is not a basic type") }
                let value = try parseOne(arrays: arrays + 1, structures: structures + 1)
                guard try next() == UInt8(ascii: "}") else {
                    throw failure("has a dictionary entry without exactly two types")
                }
                return .dictionary(key: key, value: value)
            case UInt8(ascii: "("):
                guard structures < 32 else { throw failure("nests more than 32 structures") }
                var fields: [DBusType] = []
                while index < bytes.count, bytes[index] != UInt8(ascii: ")") {
                    fields.append(try parseOne(arrays: arrays, structures: structures + 1))
                }
                guard try next() == UInt8(ascii: ")"), !fields.isEmpty else {
                    throw failure("has an empty or unclosed structure")
                }
                return .structure(fields)
            default:
                throw failure("has an unexpected character at offset \(index - 1)")
            }
        }
    }
}
