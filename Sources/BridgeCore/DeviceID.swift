/// A device's stable, topic-safe identity: `<integration>_<native id>`, e.g. `lifx_d073d5000001`.
public struct DeviceID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    /// The identifier as written in topics and config, e.g. `ble_a4c138aabbcc`.
    public let rawValue: String

    /// Accepts only lowercase letters, digits and `_`, with a prefix that names an integration (a lowercase
    /// letter first); whether that integration is registered is for the caller to check, as families are open.
    public init?(_ rawValue: String) {
        guard let underscore = rawValue.firstIndex(of: "_"),
            rawValue.first?.isLetter == true,
            rawValue.index(after: underscore) < rawValue.endIndex,
            rawValue.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") })
        else { return nil }
        self.rawValue = rawValue
    }

    /// A family's id for one of its devices: the native id lowercased, anything but letters, digits and `_`
    /// dropped (so a MAC address loses its colons).
    public init(integration: Integration, native: String) {
        rawValue = "\(integration.rawValue)_\(Self.cleaned(native))"
    }

    /// Native ids are ASCII nearly always (addresses, hex serials), and are cleaned byte by byte then: a device
    /// id is made for every state a driver reports. Anything else goes through the same rule on characters.
    private static func cleaned(_ native: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(native.utf8.count)
        for byte in native.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                bytes.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte + 32)
            case 0x80...:
                return native.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            default: continue
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The integration that owns this device.
    public var integration: Integration {
        Integration(rawValue: String(rawValue.prefix(while: { $0 != "_" })))
    }

    /// Whether the id has the shape drivers generate (`<integration>_[group_|account_]<hex>`), as opposed to a
    /// hand-written name that merely starts with an integration prefix, like `lifx_scenes`.
    public var isGeneratedShape: Bool {
        var rest = Substring(rawValue.drop(while: { $0 != "_" }).dropFirst())
        for kind in ["group_", "account_"] where rest.hasPrefix(kind) { rest = rest.dropFirst(kind.count) }
        return rest.count >= 8 && rest.allSatisfy(\.isHexDigit)
    }

    /// The identifier text.
    public var description: String { rawValue }

    /// Orders by raw value so listings are stable.
    public static func < (lhs: DeviceID, rhs: DeviceID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Decodes from a plain string, rejecting malformed ids.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = DeviceID(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a device id"))
        }
        self = id
    }

    /// Encodes as a plain string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A device family's name: the prefix of its device ids, its config section and its request topics, e.g.
/// `lifx`. Open, so a family is added by registering it, not by editing this type; each family declares its
/// own constant (`Integration.lifx` lives beside the LIFX driver).
public struct Integration: RawRepresentable, Hashable, Sendable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The name as written in ids, config keys and topics.
    public let rawValue: String

    /// An integration by name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An integration from a literal, for family constants and tests.
    public init(stringLiteral value: String) { rawValue = value }

    /// The name.
    public var description: String { rawValue }

    /// Orders by name.
    public static func < (lhs: Integration, rhs: Integration) -> Bool { lhs.rawValue < rhs.rawValue }
}
