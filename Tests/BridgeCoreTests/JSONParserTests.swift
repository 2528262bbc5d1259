import BridgeCore
import Testing

/// A document the parser must refuse, and the refusal it must give.
struct JSONRefusal: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var reason: JSONParseError.Reason
    var byte: Int
    var testDescription: String { name }

    init(_ name: String, _ text: String, _ reason: JSONParseError.Reason, at byte: Int) {
        self.init(name, Array(text.utf8), reason, at: byte)
    }

    init(_ name: String, _ bytes: [UInt8], _ reason: JSONParseError.Reason, at byte: Int) {
        self.name = name
        self.bytes = bytes
        self.reason = reason
        self.byte = byte
    }
}

@Suite("JSON parser for payloads")
struct JSONParserTests {
    static let valid: [(String, JSONValue)] = [
        ("null", .null), ("true", true), ("false", false), ("0", 0), ("-0", 0), ("42", 42), ("-17", -17),
        ("3.25", 3.25), ("1e3", 1000), ("1E+2", 100), ("25e-1", 2.5), ("-0.5e1", -5), ("1e-999", 0),
        (#""""#, ""), (#""ON""#, "ON"), (#""a\"b\\c\/d""#, "a\"b\\c/d"), (#""\b\f\n\r\t""#, "\u{8}\u{c}\n\r\t"),
        (#""\u0041\u00e9\u20AC""#, "Aé€"), (#""\ud83d\ude00""#, "😀"), (#""\u0000""#, "\u{0}"),
        ("\"grüße 😀\"", "grüße 😀"), ("[]", []), ("{}", [:]), (" [ 1 , 2 ] ", [1, 2]),
        ("\t\r\n{\"a\" :\n1}\n", ["a": 1]), (#"[[[]]]"#, [[[]]]), (#"[{},[],"",0,null]"#, [[:], [], "", 0, .null]),
        (#"{"a":1,"a":2}"#, ["a": 2]), (#"{"state":"ON","brightness":128,"color":{"h":24.5,"s":100}}"#,
            ["state": "ON", "brightness": 128, "color": ["h": 24.5, "s": 100]]),
        (#"{"":{"\u00e9":[true,false,null]}}"#, ["": ["é": [true, false, .null]]]),
        ("1.7976931348623157e308", 1.7976931348623157e308),
    ]

    @Test("valid documents", arguments: valid)
    func parses(text: String, expected: JSONValue) throws {
        #expect(try JSONValue.parse(Array(text.utf8), limits: .payload) == expected)
    }

    static let refusals: [JSONRefusal] = [
        JSONRefusal("empty", "", .unexpectedEnd, at: 1),
        JSONRefusal("only whitespace", "  ", .unexpectedEnd, at: 3),
        JSONRefusal("unclosed object", "{", .unexpectedEnd, at: 2),
        JSONRefusal("missing value", #"{"a":}"#, .unexpectedCharacter(UInt8(ascii: "}")), at: 6),
        JSONRefusal("missing comma", "[1 2]", .unexpectedCharacter(UInt8(ascii: "2")), at: 4),
        JSONRefusal("trailing comma", "[1,]", .unexpectedCharacter(UInt8(ascii: "]")), at: 4),
        JSONRefusal("unquoted key", "{a:1}", .unexpectedCharacter(UInt8(ascii: "a")), at: 2),
        JSONRefusal("single quotes", "['a']", .unexpectedCharacter(UInt8(ascii: "'")), at: 2),
        JSONRefusal("trailing garbage", "{} x", .trailingData, at: 4),
        JSONRefusal("two documents", "1 2", .trailingData, at: 3),
        JSONRefusal("misspelt literal", "[tru]", .unexpectedCharacter(UInt8(ascii: "]")), at: 5),
        JSONRefusal("capitalised literal", "True", .unexpectedCharacter(UInt8(ascii: "T")), at: 1),
        JSONRefusal("leading zero", "[01]", .malformedNumber, at: 2),
        JSONRefusal("negative leading zero", "-012", .malformedNumber, at: 1),
        JSONRefusal("leading plus", "+1", .unexpectedCharacter(UInt8(ascii: "+")), at: 1),
        JSONRefusal("leading point", ".5", .unexpectedCharacter(UInt8(ascii: ".")), at: 1),
        JSONRefusal("bare minus", "[-]", .malformedNumber, at: 2),
        JSONRefusal("point without digits", "1.", .malformedNumber, at: 1),
        JSONRefusal("exponent without digits", "[1e+]", .malformedNumber, at: 2),
        JSONRefusal("hexadecimal", "0x10", .trailingData, at: 2),
        JSONRefusal("infinite number", "[1e999]", .numberOutOfRange, at: 2),
        JSONRefusal("negative infinite number", #"{"a":-1e400}"#, .numberOutOfRange, at: 6),
        JSONRefusal("NaN", "NaN", .unexpectedCharacter(UInt8(ascii: "N")), at: 1),
        JSONRefusal("65-digit number", "[" + String(repeating: "1", count: 65) + "]", .numberTooLong(limit: 64), at: 2),
        JSONRefusal("unterminated string", #"{"a":"x"#, .unexpectedEnd, at: 8),
        JSONRefusal("raw newline in string", "\"a\nb\"", .controlCharacter, at: 3),
        JSONRefusal("raw tab in string", "\"a\tb\"", .controlCharacter, at: 3),
        JSONRefusal("unknown escape", #""\x""#, .invalidEscape, at: 2),
        JSONRefusal("short unicode escape", #""\u12""#, .invalidEscape, at: 2),
        JSONRefusal("escape at the end", #""\"#, .unexpectedEnd, at: 3),
        JSONRefusal("lone high surrogate", #""\ud83d""#, .loneSurrogate, at: 2),
        JSONRefusal("lone low surrogate", #""a\ude00""#, .loneSurrogate, at: 3),
        JSONRefusal("high surrogate then letter", #""\ud83d\u0041""#, .loneSurrogate, at: 2),
        JSONRefusal("invalid UTF-8 in a string", Array(#"{"a":""#.utf8) + [0xFF] + Array(#""}"#.utf8), .invalidUTF8, at: 7),
        JSONRefusal("truncated UTF-8", [0x22, 0xC3], .invalidUTF8, at: 2),
        JSONRefusal("overlong UTF-8", [0x22, 0xC0, 0xAF, 0x22], .invalidUTF8, at: 2),
        JSONRefusal("UTF-8 surrogate", [0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, at: 2),
        JSONRefusal("UTF-8 above U+10FFFF", [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, at: 2),
        JSONRefusal("invalid UTF-8 outside strings", [0x5B, 0xFE, 0x5D], .invalidUTF8, at: 2),
        JSONRefusal("non-ASCII outside strings", "[é]", .unexpectedCharacter(0xC3), at: 2),
        JSONRefusal("byte order mark", [0xEF, 0xBB, 0xBF, 0x7B, 0x7D], .unexpectedCharacter(0xEF), at: 1),
        JSONRefusal(
            "33 nested arrays", String(repeating: "[", count: 33) + String(repeating: "]", count: 33),
            .tooDeep(limit: 32), at: 33),
        JSONRefusal(
            "33 nested objects", String(repeating: #"{"a":"#, count: 33) + "1" + String(repeating: "}", count: 33),
            .tooDeep(limit: 32), at: 161),
        JSONRefusal(
            "5,000 nested arrays", String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000),
            .tooDeep(limit: 32), at: 33),
        JSONRefusal("1 MB of [", [UInt8](repeating: UInt8(ascii: "["), count: 1 << 20), .tooLarge(limit: 65_536), at: 65_537),
        JSONRefusal(
            "64 KiB and one byte", "\"" + String(repeating: "x", count: 65_535) + "\"", .tooLarge(limit: 65_536),
            at: 65_537),
    ]

    @Test("refusals name the reason and the byte", arguments: refusals)
    func refuses(_ refusal: JSONRefusal) {
        #expect(throws: JSONParseError(refusal.reason, offset: refusal.byte - 1)) {
            try JSONValue.parse(refusal.bytes, limits: .payload)
        }
        #expect(JSONValue.parse(refusal.bytes) == nil)
    }

    @Test("a million nested arrays within a large size limit stop at the depth limit, at byte 33")
    func millionDeep() {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000) + [UInt8](repeating: UInt8(ascii: "]"), count: 1_000_000)
        let limits = JSONLimits(maxBytes: 4 << 20, maxDepth: 32)
        #expect(throws: JSONParseError(.tooDeep(limit: 32), offset: 32)) { try JSONValue.parse(bytes, limits: limits) }
    }

    @Test("documents at the limits still parse", arguments: [31, 32])
    func atTheLimits(depth: Int) throws {
        let nested = String(repeating: "[", count: depth) + "7" + String(repeating: "]", count: depth)
        var expected: JSONValue = 7
        for _ in 0..<depth { expected = [expected] }
        #expect(try JSONValue.parse(Array(nested.utf8), limits: .payload) == expected)
        let filler = String(repeating: "é", count: (65_536 - 2) / 2)
        let string = Array(("\"" + filler + "\"").utf8)
        #expect(string.count == 65_536)
        #expect(try JSONValue.parse(string, limits: .payload) == .string(filler))
    }

    @Test("messages say what was refused and where")
    func messages() {
        #expect(JSONParseError(.tooDeep(limit: 32), offset: 32).message == "nesting deeper than 32 levels at byte 33")
        #expect(JSONParseError(.tooLarge(limit: 65_536), offset: 65_536).message == "payload larger than 65536 bytes")
        #expect(JSONParseError(.invalidUTF8, offset: 6).message == "invalid UTF-8 at byte 7")
        #expect(JSONParseError(.numberOutOfRange, offset: 2).message == "number out of range at byte 3")
        #expect(JSONParseError(.unexpectedCharacter(UInt8(ascii: "}")), offset: 5).message == "unexpected '}' at byte 6")
        #expect(JSONParseError(.unexpectedCharacter(0), offset: 0).message == "unexpected byte 0x00 at byte 1")
    }

    @Test("parsed documents encode back to the same value", arguments: valid.map(\.1))
    func roundTrip(value: JSONValue) throws {
        #expect(try JSONValue.parse(value.jsonBytes, limits: .payload) == value)
    }
}
