/// A duration written as `100ms`, `30s`, `5m` or `1h` (a bare number means seconds).
public struct ConfigDuration: Sendable, Equatable, Comparable, CustomStringConvertible, Codable {
    /// The length in milliseconds.
    public let milliseconds: Int64

    /// Creates a duration from milliseconds.
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// Creates a duration from whole seconds.
    public static func seconds(_ seconds: Int64) -> ConfigDuration { .init(milliseconds: seconds * 1000) }

    /// As a Swift `Duration`.
    public var duration: Duration { .milliseconds(milliseconds) }

    /// Whole seconds, rounded up.
    public var seconds: Int { Int((milliseconds + 999) / 1000) }

    /// Parses the written form.
    public init?(parsing text: String) {
        let units: [(String, Int64)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        let trimmed = text.filter { !$0.isWhitespace }
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            let number = trimmed.dropLast(suffix.count)
            // "5ms" also ends in "s"; only accept the unit whose remainder is a number.
            guard let value = Double(number) else { continue }
            guard let milliseconds = Self.milliseconds(value, scale: Double(scale)) else { return nil }
            self.init(milliseconds: milliseconds)
            return
        }
        guard let seconds = Double(trimmed), let milliseconds = Self.milliseconds(seconds, scale: 1000) else { return nil }
        self.init(milliseconds: milliseconds)
    }

    /// Converts to whole milliseconds; nil for negative, infinite or absurdly large values (over ten years).
    private static func milliseconds(_ value: Double, scale: Double) -> Int64? {
        let result = (value * scale).rounded()
        guard value >= 0, result.isFinite, result <= 315_360_000_000 else { return nil }
        return Int64(result)
    }

    /// Decodes from a string such as `30s`, or a number of seconds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self) {
            guard let milliseconds = Self.milliseconds(seconds, scale: 1000) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "\(seconds) is not a usable duration (negative or too large)")
            }
            self.init(milliseconds: milliseconds)
            return
        }
        let text = try container.decode(String.self)
        guard let parsed = ConfigDuration(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not a duration; write e.g. 100ms, 30s, 5m or 1h")
        }
        self = parsed
    }

    /// The written form, e.g. `30s`.
    public var description: String {
        if milliseconds % 3_600_000 == 0, milliseconds > 0 { return "\(milliseconds / 3_600_000)h" }
        if milliseconds % 60_000 == 0, milliseconds > 0 { return "\(milliseconds / 60_000)m" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        return "\(milliseconds)ms"
    }

    /// Encodes the written form, as `bridge/info` shows it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Orders by length.
    public static func < (lhs: ConfigDuration, rhs: ConfigDuration) -> Bool { lhs.milliseconds < rhs.milliseconds }
}

/// The parts of an `mqtt://` or `mqtts://` server URL.
public struct ServerURL: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var secure: Bool

    /// Parses `mqtt[s]://host[:port]`; IPv6 hosts go in brackets.
    public init?(_ text: String) {
        let secure: Bool
        let rest: Substring
        if text.hasPrefix("mqtt://") {
            secure = false
            rest = text.dropFirst(7)
        } else if text.hasPrefix("mqtts://") {
            secure = true
            rest = text.dropFirst(8)
        } else {
            return nil
        }
        let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        guard !authority.isEmpty, !authority.contains("/"), !authority.contains("@") else { return nil }
        var host = String(authority)
        var port = secure ? 8883 : 1883
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let value = Int(after.dropFirst()) else { return nil }
                port = value
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            guard let value = Int(authority[authority.index(after: colon)...]) else { return nil }
            port = value
        }
        guard !host.isEmpty, (1...65535).contains(port) else { return nil }
        self.host = host
        self.port = port
        self.secure = secure
    }
}
