import Support

extension JSONParser {
    /// Reads a string starting at its opening quote; the text is checked as UTF-8 as it is read.
    mutating func string() throws(JSONParseError) -> String {
        index += 1
        var start = index
        // Only strings with escapes need a copy; the rest are decoded straight from the payload.
        var unescaped: [UInt8]?
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case .quote:
                defer { index += 1 }
                guard var copy = unescaped else { return String(decoding: bytes[start..<index], as: UTF8.self) }
                copy.append(contentsOf: bytes[start..<index])
                return String(decoding: copy, as: UTF8.self)
            case .backslash:
                var copy = unescaped ?? []
                copy.append(contentsOf: bytes[start..<index])
                try escape(into: &copy)
                unescaped = copy
                start = index
            case ..<0x20:
                throw JSONParseError(.controlCharacter, offset: index)
            case 0x80...:
                index += try utf8Length(at: index)
            default:
                index += 1
            }
        }
        throw JSONParseError(.unexpectedEnd, offset: index)
    }

    /// Decodes the escape at `index` (a backslash), pairing `\u` surrogates into one scalar.
    private mutating func escape(into buffer: inout [UInt8]) throws(JSONParseError) {
        let start = index
        guard index + 1 < bytes.count else { throw JSONParseError(.unexpectedEnd, offset: index + 1) }
        let simple: UInt8? =
            switch bytes[index + 1] {
            case .quote, .backslash, UInt8(ascii: "/"): bytes[index + 1]
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        if let simple {
            buffer.append(simple)
            index += 2
            return
        }
        var unit = try hexEscape()
        if (0xDC00...0xDFFF).contains(unit) { throw JSONParseError(.loneSurrogate, offset: start) }
        if (0xD800...0xDBFF).contains(unit) {
            guard index + 1 < bytes.count, bytes[index] == .backslash, bytes[index + 1] == UInt8(ascii: "u") else {
                throw JSONParseError(.loneSurrogate, offset: start)
            }
            let low = try hexEscape()
            guard (0xDC00...0xDFFF).contains(low) else { throw JSONParseError(.loneSurrogate, offset: start) }
            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(unit) else { throw JSONParseError(.loneSurrogate, offset: start) }
        UTF8.encode(scalar) { buffer.append($0) }
    }

    /// Reads `\uXXXX` at `index`.
    private mutating func hexEscape() throws(JSONParseError) -> UInt32 {
        let start = index
        guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
            throw index + 1 < bytes.count
                ? JSONParseError(.invalidEscape, offset: start) : JSONParseError(.unexpectedEnd, offset: index + 1)
        }
        var unit: UInt32 = 0
        for offset in 2..<6 {
            guard index + offset < bytes.count else { throw JSONParseError(.unexpectedEnd, offset: index + offset) }
            guard let digit = Hex.digit(bytes[index + offset]) else { throw JSONParseError(.invalidEscape, offset: start) }
            unit = unit << 4 | UInt32(digit)
        }
        index += 6
        return unit
    }

    /// The length of the well-formed UTF-8 sequence at `position` (RFC 3629: no overlong forms, no
    /// surrogates, nothing above U+10FFFF).
    func utf8Length(at position: Int) throws(JSONParseError) -> Int {
        let lead = bytes[position]
        let (length, second): (Int, ClosedRange<UInt8>) =
            switch lead {
            case 0x00...0x7F: (1, 0x80...0xBF)
            case 0xC2...0xDF: (2, 0x80...0xBF)
            case 0xE0: (3, 0xA0...0xBF)
            case 0xED: (3, 0x80...0x9F)
            case 0xE1...0xEF: (3, 0x80...0xBF)
            case 0xF0: (4, 0x90...0xBF)
            case 0xF1...0xF3: (4, 0x80...0xBF)
            case 0xF4: (4, 0x80...0x8F)
            default: (0, 0x80...0xBF)
            }
        guard length > 0, position + length <= bytes.count else { throw JSONParseError(.invalidUTF8, offset: position) }
        for offset in 1..<length {
            let range: ClosedRange<UInt8> = offset == 1 ? second : 0x80...0xBF
            guard range.contains(bytes[position + offset]) else { throw JSONParseError(.invalidUTF8, offset: position) }
        }
        return length
    }
}
