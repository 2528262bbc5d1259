/// Hex text ⇄ bytes, for GATT values on MQTT (`"c0ffee"`).
public enum Hex {
    /// Lower-case hex digits, two per byte.
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of hex text; spaces, colons and a `0x` prefix are allowed between or before bytes.
    public static func bytes(_ text: String) throws(BLEFormatError) -> [UInt8] {
        var body = Substring(text)
        if body.hasPrefix("0x") || body.hasPrefix("0X") { body = body.dropFirst(2) }
        var bytes: [UInt8] = []
        var high: UInt8?
        for (offset, character) in body.enumerated() {
            if character == " " || character == ":", high == nil { continue }
            guard character.isASCII, let nibble = character.hexDigitValue.map(UInt8.init) else {
                throw BLEFormatError("\"\(text)\" is not hex: \"\(character)\" at character \(offset + 1)")
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard high == nil else { throw BLEFormatError("\"\(text)\" has an odd number of hex digits") }
        return bytes
    }
}
