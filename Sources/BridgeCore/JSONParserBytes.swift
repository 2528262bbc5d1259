extension JSONParser {
    mutating func skipWhitespace() {
        while index < bytes.count, bytes[index].isJSONWhitespace { index += 1 }
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func expect(_ byte: UInt8) throws(JSONParseError) {
        guard consume(byte) else { throw unexpected() }
    }

    /// The error for the byte at `index`: the end of input, broken UTF-8, or a character out of place.
    func unexpected() -> JSONParseError {
        guard index < bytes.count else { return JSONParseError(.unexpectedEnd, offset: index) }
        if bytes[index] >= 0x80, (try? utf8Length(at: index)) == nil { return JSONParseError(.invalidUTF8, offset: index) }
        return JSONParseError(.unexpectedCharacter(bytes[index]), offset: index)
    }
}

extension UInt8 {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")

    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }

    /// Space, tab, line feed and carriage return: the only whitespace JSON allows.
    var isJSONWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}
