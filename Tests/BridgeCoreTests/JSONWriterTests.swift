import BridgeCore
import Testing

@Suite("JSON writer: compact, sorted, and read back as written")
struct JSONWriterTests {
    @Test(
        "values are written as documented",
        arguments: [
            (JSONValue.null, "null"), (true, "true"), (false, "false"), (128, "128"), (-3, "-3"), (21.5, "21.5"),
            (0, "0"), (-0.0, "0"), (-100, "-100"), (999_999_999_999_999, "999999999999999"),
            (-999_999_999_999_999, "-999999999999999"), (1e15, "1000000000000000.0"),
            (0.1, "0.1"), (1e20, "1e+20"), (.number(.nan), "null"), (.number(.infinity), "null"),
            ("a/b", #""a/b""#), ("say \"hi\"\\", #""say \"hi\"\\""#), ("line\nnext\ttab\r", #""line\nnext\ttab\r""#),
            (.string("\u{01}\u{1F}"), #""\u0001\u001f""#), ("grüße ☀︎", "\"grüße ☀︎\""),
            (["b": 1, "a": [true, .null], "C": "x"], #"{"C":"x","a":[true,null],"b":1}"#), ([:], "{}"), ([], "[]"),
        ] as [(JSONValue, String)])
    func written(value: JSONValue, text: String) {
        #expect(value.jsonString == text)
    }

    @Test("what the writer writes, the parser reads back the same")
    func roundTrip() throws {
        let documents: [JSONValue] = [
            ["state": "ON", "brightness": 200, "color": ["h": 120, "s": 80.5], "list": [1, -2.25, "x", .null, false]],
            ["nested": ["deeper": ["deepest": "\u{7F}\u{00}\"\\/"]]], .string(String(repeating: "é", count: 300)),
        ]
        for document in documents {
            #expect(try JSONValue.parse(document.jsonBytes, limits: .payload) == document)
        }
    }
}
