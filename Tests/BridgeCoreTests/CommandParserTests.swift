import BridgeCore
import Testing

/// What a `/set` payload should turn into.
enum SetOutcome: Sendable {
    case light(LightCommand)
    case attributes([String: JSONValue])
    case error(String)
}

/// One `/set` payload for a device.
struct SetCase: Sendable, CustomTestStringConvertible {
    var payload: String
    var attribute: String? = nil
    var outcome: SetOutcome
    var testDescription: String { (attribute.map { "/set/\($0) " } ?? "/set ") + payload }
}

enum Devices {
    static let colorLight = DeviceDescriptor(
        id: DeviceID("lifx_d073d5000001")!, kind: "light", manufacturer: "LIFX", model: "A19",
        exposes: [
            .light(LightFeatures(colorModes: [.hs, .colorTemp], kelvinRange: 1500...9000, effects: ["pulse", "breathe"])),
            .numeric("signal", name: "Signal", unit: "dBm"),
        ],
        switchable: true)
    static let whiteLight = DeviceDescriptor(
        id: DeviceID("lifx_d073d5000002")!, kind: "light", manufacturer: "LIFX", model: "Mini White",
        exposes: [.light(LightFeatures(colorModes: [.colorTemp], kelvinRange: 2700...6500))], switchable: true)
    static let plainLight = DeviceDescriptor(
        id: DeviceID("lifx_d073d5000003")!, kind: "light", manufacturer: "LIFX", model: "Plug",
        exposes: [.light(LightFeatures(colorModes: [], brightness: false))], switchable: true)
    static let sensor = DeviceDescriptor(
        id: DeviceID("ble_a4c138aabbcc")!, kind: "sensor", manufacturer: "Xiaomi", model: "LYWSD03MMC",
        exposes: [
            .numeric("temperature", name: "Temperature", unit: "°C"),
            .numeric("interval", name: "Interval", access: [.state, .set], range: 1...3600),
            .binary("led", name: "LED", access: [.state, .set]),
            .enumeration("display", name: "Display", values: ["C", "F"], access: [.state, .set]),
            .text("note", name: "Note", access: [.state, .set]),
            .action("identify", name: "Identify", payload: "blink"),
            {
                var reset = Expose.action("reset", name: "Reset", payload: "reset")
                reset.objectID = "reset_counters"
                return reset
            }(),
            {
                var label = Expose.text("label", name: "Label", access: [.state, .set], maxLength: 13)
                label.minimum = 1
                return label
            }(),
        ])
}

@Suite("CommandParser.parseSet")
struct CommandParserTests {
    static let colorLightCases: [SetCase] = [
        SetCase(payload: "ON", outcome: .light(LightCommand(power: .on))),
        SetCase(payload: "off", outcome: .light(LightCommand(power: .off))),
        SetCase(payload: " TOGGLE\n", outcome: .light(LightCommand(power: .toggle))),
        SetCase(payload: #"{"state":"ON","brightness":128}"#, outcome: .light(LightCommand(power: .on, brightness: 128))),
        SetCase(payload: #"{"state":true}"#, outcome: .light(LightCommand(power: .on))),
        SetCase(payload: #"{"brightness":"64"}"#, outcome: .light(LightCommand(brightness: 64))),
        SetCase(payload: #"{"brightness":300}"#, outcome: .error("brightness 300 is out of range 0–255")),
        SetCase(payload: #"{"brightness":-1}"#, outcome: .error("brightness -1 is out of range 0–255")),
        SetCase(payload: #"{"brightness":"bright"}"#, outcome: .error("brightness must be a number")),
        SetCase(payload: #"{"state":"MAYBE"}"#, outcome: .error("state must be ON, OFF or TOGGLE")),
        SetCase(
            payload: #"{"color":{"h":120,"s":80}}"#,
            outcome: .light(LightCommand(color: .init(hue: 120, saturation: 80)))),
        SetCase(
            payload: #"{"color":{"hue":30,"saturation":50},"brightness":128,"state":"ON"}"#,
            outcome: .light(LightCommand(power: .on, brightness: 128, color: .init(hue: 30, saturation: 50)))),
        SetCase(
            payload: #"{"color":{"r":255,"g":0,"b":0}}"#, outcome: .light(LightCommand(color: .init(hue: 0, saturation: 100)))),
        SetCase(payload: #"{"color":{"h":400,"s":80}}"#, outcome: .error("color.h 400 is out of range 0–360")),
        SetCase(payload: #"{"color":{"x":0.3}}"#, outcome: .error("color needs h")),
        SetCase(payload: #"{"color":"red"}"#, outcome: .error("color must be an object")),
        SetCase(payload: #"{"color_temp":4000}"#, outcome: .light(LightCommand(kelvin: 4000))),
        SetCase(payload: #"{"color_temp":250}"#, outcome: .light(LightCommand(kelvin: 4000))),
        SetCase(payload: #"{"color_temp":9300}"#, outcome: .light(LightCommand(kelvin: 9000))),
        SetCase(payload: #"{"color_temp":100}"#, outcome: .error("outside this light's range of 1500–9000 K")),
        SetCase(payload: #"{"color_temp":20000}"#, outcome: .error("outside this light's range")),
        SetCase(payload: #"{"effect":"pulse"}"#, outcome: .light(LightCommand(effect: "pulse"))),
        SetCase(payload: #"{"effect":"BREATHE"}"#, outcome: .light(LightCommand(effect: "breathe"))),
        SetCase(payload: #"{"effect":"disco"}"#, outcome: .error("unknown effect \"disco\" (known: pulse, breathe)")),
        SetCase(payload: #"{"state":"OFF","transition":2.5}"#, outcome: .light(LightCommand(power: .off, transition: 2.5))),
        SetCase(payload: #"{"transition":-1,"state":"ON"}"#, outcome: .error("transition -1 is out of range")),
        SetCase(payload: #"{"signal":5}"#, outcome: .error("unknown or read-only attribute \"signal\"")),
        SetCase(payload: "{}", outcome: .error("nothing to set")),
        SetCase(payload: "", outcome: .error("empty payload")),
        SetCase(payload: "dim please", outcome: .error("payload is not a JSON object")),
        SetCase(payload: "[1,2]", outcome: .error("payload is not a JSON object")),
        SetCase(payload: "128", attribute: "brightness", outcome: .light(LightCommand(brightness: 128))),
        SetCase(payload: "ON", attribute: "state", outcome: .light(LightCommand(power: .on))),
        SetCase(payload: "pulse", attribute: "effect", outcome: .light(LightCommand(effect: "pulse"))),
        SetCase(payload: "", attribute: "brightness", outcome: .error("empty value for brightness")),
    ]

    @Test("a colour light", arguments: colorLightCases)
    func colorLight(_ testCase: SetCase) {
        Self.check(testCase, device: Devices.colorLight)
    }

    static let limitedLightCases: [(DeviceDescriptor, SetCase)] = [
        (Devices.whiteLight, SetCase(payload: #"{"color":{"h":10,"s":10}}"#, outcome: .error("no colour, only white"))),
        (Devices.whiteLight, SetCase(payload: #"{"color_temp":3000}"#, outcome: .light(LightCommand(kelvin: 3000)))),
        (Devices.whiteLight, SetCase(payload: #"{"effect":"pulse"}"#, outcome: .error("known: none"))),
        (Devices.plainLight, SetCase(payload: #"{"brightness":10}"#, outcome: .error("no brightness control"))),
        (Devices.plainLight, SetCase(payload: #"{"color_temp":3000}"#, outcome: .error("no colour temperature control"))),
        (Devices.plainLight, SetCase(payload: "OFF", outcome: .light(LightCommand(power: .off)))),
    ]

    @Test("lights with fewer features", arguments: limitedLightCases)
    func limitedLights(device: DeviceDescriptor, testCase: SetCase) {
        Self.check(testCase, device: device)
    }

    static let sensorCases: [SetCase] = [
        SetCase(payload: #"{"interval":30}"#, outcome: .attributes(["interval": 30])),
        SetCase(payload: "45", attribute: "interval", outcome: .attributes(["interval": 45])),
        SetCase(payload: #"{"interval":0}"#, outcome: .error("interval 0 is out of range 1–3600")),
        SetCase(payload: #"{"led":"ON"}"#, outcome: .attributes(["led": "ON"])),
        SetCase(payload: #"{"led":false}"#, outcome: .attributes(["led": "OFF"])),
        SetCase(payload: #"{"led":"TOGGLE"}"#, outcome: .attributes(["led": "TOGGLE"])),
        SetCase(payload: #"{"led":"dim"}"#, outcome: .error("led must be ON, OFF or TOGGLE")),
        SetCase(payload: #"{"display":"F"}"#, outcome: .attributes(["display": "F"])),
        SetCase(payload: #"{"display":"K"}"#, outcome: .error("display must be one of C, F")),
        SetCase(payload: #"{"note":"hello"}"#, outcome: .attributes(["note": "hello"])),
        SetCase(payload: #"{"note":5}"#, outcome: .error("note must be a string")),
        SetCase(payload: #"{"identify":"blink"}"#, outcome: .attributes(["identify": "blink"])),
        SetCase(payload: #"{"identify":true}"#, outcome: .attributes(["identify": "blink"])),
        SetCase(payload: #"{"reset_counters":true}"#, outcome: .attributes(["reset": "reset"])),
        SetCase(payload: "reset", attribute: "reset_counters", outcome: .attributes(["reset": "reset"])),
        SetCase(payload: "true", attribute: "identify", outcome: .attributes(["identify": "blink"])),
        SetCase(payload: #"{"identify":false}"#, outcome: .error("identify must be one of blink (or true), not false")),
        SetCase(payload: #"{"label":"twelve chars"}"#, outcome: .attributes(["label": "twelve chars"])),
        SetCase(payload: #"{"label":"thirteen char"}"#, outcome: .attributes(["label": "thirteen char"])),
        SetCase(payload: #"{"label":"fourteen chars"}"#, outcome: .error("label is 14 characters long, more than 13")),
        SetCase(payload: #"{"label":""}"#, outcome: .error("label is 0 characters long, fewer than 1")),
        SetCase(payload: #"{"temperature":20}"#, outcome: .error("unknown or read-only attribute \"temperature\"")),
        SetCase(payload: "ON", outcome: .error("this device cannot be switched ON")),
        SetCase(payload: #"{"brightness":20}"#, outcome: .error("unknown or read-only attribute \"brightness\"")),
    ]

    @Test("a device with writable attributes", arguments: sensorCases)
    func sensor(_ testCase: SetCase) {
        Self.check(testCase, device: Devices.sensor)
    }

    @Test(
        "hostile payloads are refused, not crashed on",
        arguments: [
            [UInt8](), [0xff, 0xfe, 0x00, 0x7b], Array(repeating: UInt8(ascii: "["), count: 1 << 20),
            Array((String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)).utf8),
            Array(#"{"state":"ON""#.utf8) + [0xc3, 0x28] + Array("}".utf8),
        ])
    func hostile(payload: [UInt8]) {
        #expect(throws: CommandError.self) {
            try CommandParser.parseSet(payload: payload, attribute: nil, device: Devices.colorLight)
        }
    }

    @Test("get payloads")
    func get() throws {
        #expect(try CommandParser.parseGet(payload: [], attribute: nil, device: Devices.colorLight) == [])
        #expect(try CommandParser.parseGet(payload: [], attribute: "state", device: Devices.colorLight) == ["state"])
        let keys = try CommandParser.parseGet(payload: Array(#"{"state":"","brightness":""}"#.utf8), attribute: nil, device: Devices.colorLight)
        #expect(keys == ["brightness", "state"])
        #expect(throws: CommandError.self) {
            try CommandParser.parseGet(payload: Array("state".utf8), attribute: nil, device: Devices.colorLight)
        }
    }

    static func check(_ testCase: SetCase, device: DeviceDescriptor) {
        let result = Result { () throws(CommandError) in
            try CommandParser.parseSet(payload: Array(testCase.payload.utf8), attribute: testCase.attribute, device: device)
        }
        switch (testCase.outcome, result) {
        case (.light(let expected), .success(let command)):
            #expect(command.light == expected)
            #expect(command.attributes.isEmpty)
        case (.attributes(let expected), .success(let command)):
            #expect(command.attributes == expected)
            #expect(command.light == nil)
        case (.error(let fragment), .failure(let error)):
            #expect(error.message.contains(fragment), "\(error.message)")
        case (_, .success(let command)):
            Issue.record("expected \(testCase.outcome), parsed \(command)")
        case (_, .failure(let error)):
            Issue.record("expected \(testCase.outcome), refused: \(error.message)")
        }
    }
}
