import Support

/// How much a JSON document may ask of the parser before it is refused.
public struct JSONLimits: Sendable, Equatable {
    /// The largest document accepted, in bytes.
    public var maxBytes: Int
    /// The deepest nesting of arrays and objects accepted; 1 allows `[1]` but not `[[1]]`.
    public var maxDepth: Int

    /// Creates limits.
    public init(maxBytes: Int, maxDepth: Int) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }

    /// For MQTT payloads: commands and requests are small objects, and one client must not be able
    /// to stall the queue every device shares with a huge or deeply nested document.
    public static let payload = JSONLimits(maxBytes: 64 * 1024, maxDepth: 32)
}

/// Why a JSON document was refused, and the byte where that was found.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Equatable {
        case tooLarge(limit: Int)
        case tooDeep(limit: Int)
        case invalidUTF8
        case controlCharacter
        case invalidEscape
        case loneSurrogate
        case numberOutOfRange
        case numberTooLong(limit: Int)
        case malformedNumber
        case unexpectedCharacter(UInt8)
        case unexpectedEnd
        case trailingData
    }

    /// What was wrong.
    public var reason: Reason
    /// The 1-based position of the offending byte, counted the way editors count columns.
    public var byte: Int

    /// Creates an error for the byte at 0-based `offset`.
    public init(_ reason: Reason, offset: Int) {
        self.reason = reason
        self.byte = offset + 1
    }

    /// What was refused and where, for the person who sent the document.
    public var message: String {
        switch reason {
        case .tooLarge(let limit): "payload larger than \(limit) bytes"
        case .tooDeep(let limit): "nesting deeper than \(limit) levels at byte \(byte)"
        case .invalidUTF8: "invalid UTF-8 at byte \(byte)"
        case .controlCharacter: "unescaped control character in a string at byte \(byte)"
        case .invalidEscape: "invalid escape sequence at byte \(byte)"
        case .loneSurrogate: "unpaired UTF-16 surrogate in \\u escape at byte \(byte)"
        case .numberOutOfRange: "number out of range at byte \(byte)"
        case .numberTooLong(let limit): "number longer than \(limit) characters at byte \(byte)"
        case .malformedNumber: "malformed number at byte \(byte)"
        case .unexpectedCharacter(let value): "unexpected \(Self.describe(value)) at byte \(byte)"
        case .unexpectedEnd: "JSON ends early at byte \(byte)"
        case .trailingData: "unexpected data after the JSON value at byte \(byte)"
        }
    }

    /// The message.
    public var description: String { message }

    private static func describe(_ value: UInt8) -> String {
        guard value >= 0x21, value < 0x7f else {
            return "byte 0x\(Hex.byte(value, uppercase: true))"
        }
        return "'\(Character(Unicode.Scalar(value)))'"
    }
}
