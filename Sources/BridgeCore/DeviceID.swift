/// A device's stable, topic-safe identity: `<integration>_<native id>`, e.g. `lifx_d073d5000001`.
public struct DeviceID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    /// The identifier as written in topics and config, e.g. `ble_a4c138aabbcc`.
    public let rawValue: String

    /// Accepts only lowercase letters, digits and `_`, with a known integration prefix.
    public init?(_ rawValue: String) {
        guard let underscore = rawValue.firstIndex(of: "_"),
            Integration(rawValue: String(rawValue[..<underscore])) != nil,
            rawValue.index(after: underscore) < rawValue.endIndex,
            rawValue.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") })
        else { return nil }
        self.rawValue = rawValue
    }

    private init(integration: Integration, suffix: String) {
        let cleaned = suffix.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        rawValue = "\(integration.rawValue)_\(cleaned)"
    }

    /// A LIFX light, by its serial number.
    public static func lifx(light: String) -> DeviceID { DeviceID(integration: .lifx, suffix: light) }
    /// A LIFX group, by its group id.
    public static func lifx(group: String) -> DeviceID { DeviceID(integration: .lifx, suffix: "group_" + group) }
    /// A BLE device, by its MAC address (colons dropped).
    public static func ble(mac: String) -> DeviceID { DeviceID(integration: .ble, suffix: mac) }
    /// An EV3 brick, by its serial number.
    public static func ev3(serial: String) -> DeviceID { DeviceID(integration: .ev3, suffix: serial) }

    /// The integration that owns this device.
    public var integration: Integration {
        Integration(rawValue: String(rawValue.prefix(while: { $0 != "_" })))!
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

/// The device families the bridge knows.
public enum Integration: String, Sendable, Hashable, CaseIterable, Codable {
    case lifx, ble, ev3
}
