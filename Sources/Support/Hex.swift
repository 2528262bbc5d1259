/// Hex text ⇄ bytes, written by hand because the project avoids Foundation's `String(format:)`.
public enum Hex {
    private static let lower = Array("0123456789abcdef".utf8)
    private static let upper = Array("0123456789ABCDEF".utf8)

    /// Two hex digits per byte, lowercase unless asked, with `separator` between bytes (`"c0ffee"`).
    public static func string(_ bytes: some Sequence<UInt8>, uppercase: Bool = false, separator: String = "") -> String {
        let digits = uppercase ? upper : lower
        var text: [UInt8] = []
        let gap = Array(separator.utf8)
        for byte in bytes {
            if !text.isEmpty { text += gap }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The two hex digits of one byte, lowercase unless asked.
    public static func byte(_ byte: UInt8, uppercase: Bool = false) -> String {
        string(CollectionOfOne(byte), uppercase: uppercase)
    }

    /// The value of one ASCII hex digit in either case, or nil for any other byte. Inlinable: parsers in
    /// other modules call it for every digit (a service data UUID's 32 on the D-Bus thread, for each advert).
    @inlinable
    public static func digit(_ ascii: UInt8) -> UInt8? {
        switch ascii {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): ascii - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): ascii - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): ascii - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The bytes of hex text; spaces, colons and a `0x` prefix are allowed between or before bytes.
    public static func bytes(_ text: String) throws(HexError) -> [UInt8] {
        var body = Substring(text)
        if body.hasPrefix("0x") || body.hasPrefix("0X") { body = body.dropFirst(2) }
        var bytes: [UInt8] = []
        var high: UInt8?
        for (offset, character) in body.enumerated() {
            if character == " " || character == ":", high == nil { continue }
            // A Character, not a byte: a multi-byte character must be refused whole, and quoted in the error.
            guard let ascii = character.asciiValue, let nibble = digit(ascii) else {
                throw HexError("\"\(text)\" is not hex: \"\(character)\" at character \(offset + 1)")
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard high == nil else { throw HexError("\"\(text)\" has an odd number of hex digits") }
        return bytes
    }
}

/// Why text is not hex bytes.
public struct HexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, quoting the offending text.
    public let description: String

    init(_ description: String) { self.description = description }
}
