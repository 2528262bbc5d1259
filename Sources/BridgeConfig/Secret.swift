/// A secret config value (a token, a password). Marking a field `Secret` is what keeps it out of
/// `bridge/info` and the logs: it encodes and prints as `***`, so no hand-kept list of secrets exists.
public struct Secret: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    ExpressibleByStringLiteral
{
    /// The secret itself, for the one place that needs it (a driver's client).
    public let value: String

    /// Wraps a value.
    public init(_ value: String) { self.value = value }

    /// A literal secret, for tests.
    public init(stringLiteral value: String) { self.value = value }

    /// Decodes from text.
    public init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(String.self) }

    /// Always `***`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("***")
    }

    /// Always `***`.
    public var description: String { "***" }
    /// Always `***`.
    public var debugDescription: String { "***" }
}
