import BridgeConfig
import BridgeCore
import Testing

@Suite("ConfigDuration, ServerURL and JSONValue")
struct ValueParsingTests {
    static let durations: [(String, Int64?)] = [
        ("100ms", 100), ("5ms", 5), ("30s", 30_000), ("1.5s", 1_500), ("5m", 300_000), ("1h", 3_600_000),
        ("1.5h", 5_400_000), ("10", 10_000), ("0", 0), (" 2 s ", 2_000), ("0.25", 250),
        ("-1s", nil), ("10 parsecs", nil), ("abc", nil), ("", nil), ("s", nil), ("5d", nil), ("1e400s", nil),
    ]

    @Test("duration syntax", arguments: durations)
    func duration(text: String, milliseconds: Int64?) {
        #expect(ConfigDuration(parsing: text)?.milliseconds == milliseconds)
    }

    static let renderings: [(Int64, String, Int)] = [
        (0, "0s", 0), (100, "100ms", 1), (1_500, "1500ms", 2), (30_000, "30s", 30), (60_000, "1m", 60),
        (90_000, "90s", 90), (3_600_000, "1h", 3600), (5_400_000, "90m", 5400),
    ]

    @Test("duration description and whole seconds", arguments: renderings)
    func rendering(milliseconds: Int64, text: String, seconds: Int) {
        let duration = ConfigDuration(milliseconds: milliseconds)
        #expect(duration.description == text)
        #expect(duration.seconds == seconds)
        #expect(ConfigDuration(parsing: text) == duration)
    }

    static let servers: [(String, String?, Int, Bool)] = [
        ("mqtt://localhost", "localhost", 1883, false),
        ("mqtt://broker.lan:1884", "broker.lan", 1884, false),
        ("mqtt://192.168.1.2:1883/", "192.168.1.2", 1883, false),
        ("mqtts://broker", "broker", 8883, true),
        ("mqtts://broker:443", "broker", 443, true),
        ("mqtt://[::1]:1885", "::1", 1885, false),
        ("mqtt://[fe80::1]", "fe80::1", 1883, false),
        ("http://broker", nil, 0, false),
        ("tcp://broker:1883", nil, 0, false),
        ("broker:1883", nil, 0, false),
        ("mqtt://", nil, 0, false),
        ("mqtt://:1883", nil, 0, false),
        ("mqtt://broker:0", nil, 0, false),
        ("mqtt://broker:65536", nil, 0, false),
        ("mqtt://broker:port", nil, 0, false),
        ("mqtt://user:pw@broker", nil, 0, false),
        ("mqtt://broker/path", nil, 0, false),
        ("mqtt://[::1", nil, 0, false),
        ("mqtt://[::1]x", nil, 0, false),
    ]

    @Test("server URLs", arguments: servers)
    func server(text: String, host: String?, port: Int, secure: Bool) {
        let url = ServerURL(text)
        #expect(url?.host == host)
        if host != nil {
            #expect(url?.port == port)
            #expect(url?.secure == secure)
        }
    }

    static let encodings: [(JSONValue, String)] = [
        (128, "128"), (128.5, "128.5"), (-3, "-3"), (0, "0"), (1e14, "100000000000000"), (0.25, "0.25"),
        (["b": 1, "a": [true, .null], "c": "x/y"], #"{"a":[true,null],"b":1,"c":"x/y"}"#),
        (["z": ["y": 2.0, "x": 1.0]], #"{"z":{"x":1,"y":2}}"#),
        (["state": "ON", "brightness": 254, "color": ["h": 24.0, "s": 100.0]], #"{"brightness":254,"color":{"h":24,"s":100},"state":"ON"}"#),
        ("quote \" and \\", #""quote \" and \\""#),
        ([], "[]"), ([:], "{}"),
    ]

    @Test("JSON encoding: whole numbers without .0, sorted keys", arguments: encodings)
    func encoding(value: JSONValue, json: String) {
        #expect(value.jsonString == json)
        #expect(JSONValue.parse(Array(json.utf8)) == value)
    }

    @Test("JSON parsing", arguments: ["", "not json", "{", #"{"a":}"#, "[1 2]"])
    func notJSON(text: String) {
        #expect(JSONValue.parse(Array(text.utf8)) == nil)
    }

    @Test("JSON accessors and overlay")
    func accessors() {
        let value: JSONValue = ["a": 1, "b": "x", "c": true, "d": .null]
        #expect(value["a"]?.doubleValue == 1)
        #expect(value["b"]?.stringValue == "x")
        #expect(value["c"]?.boolValue == true)
        #expect(value["d"] == .null)
        #expect(value["missing"] == nil)
        #expect(JSONValue.string("x")["a"] == nil)
        let merged = ["a": 1, "b": 2].merging(overlay: ["b": .null, "c": 3] as [String: JSONValue])
        #expect(merged == ["a": 1, "c": 3])
        #expect(JSONValue.string("hi").brief == "\"hi\"")
        #expect(JSONValue.parse(Array(#""text""#.utf8)) == .string("text"))
    }
}
