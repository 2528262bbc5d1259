import BridgeCore
import Testing
import TestSupport

/// `/set` payloads for a device whose writable values sit inside composite exposes.
@Suite("CommandParser.parseSet with composite exposes")
struct CompositeSetTests {
    static let writableInMotor = "writable: motor_a.brake, motor_a.label, motor_a.mode, motor_a.speed, motor_a.stop"

    static let cases: [SetCase] = [
        SetCase(payload: #"{"motor_a":{"speed":20}}"#, outcome: .attributes(["motor_a": ["speed": 20]])),
        SetCase(payload: #"{"motor_a":{"speed":"-35.5"}}"#, outcome: .attributes(["motor_a": ["speed": -35.5]])),
        SetCase(
            payload: #"{"motor_a":{"speed":20,"brake":true,"mode":"hold","label":"left"}}"#,
            outcome: .attributes(["motor_a": ["speed": 20, "brake": "ON", "mode": "hold", "label": "left"]])),
        SetCase(payload: #"{"motor_a":{"brake":"TOGGLE"}}"#, outcome: .attributes(["motor_a": ["brake": "TOGGLE"]])),
        SetCase(payload: #"{"motor_a":{"stop":"stop"}}"#, outcome: .attributes(["motor_a": ["stop": "stop"]])),
        SetCase(payload: #"{"speed":30}"#, attribute: "motor_a", outcome: .attributes(["motor_a": ["speed": 30]])),
        SetCase(
            payload: #"{"sensors":{"port_1":{"mode":"color"}}}"#,
            outcome: .attributes(["sensors": ["port_1": ["mode": "color"]]])),
        SetCase(payload: #"{"motor_a":{"speed":200}}"#, outcome: .error("motor_a.speed 200 is out of range -100–100")),
        SetCase(payload: #"{"motor_a":{"speed":"fast"}}"#, outcome: .error("motor_a.speed must be a number, not \"fast\"")),
        SetCase(payload: #"{"motor_a":{"speed":{"x":1}}}"#, outcome: .error("motor_a.speed must be a number")),
        SetCase(payload: #"{"motor_a":{"brake":"dim"}}"#, outcome: .error("motor_a.brake must be ON, OFF or TOGGLE")),
        SetCase(payload: #"{"motor_a":{"mode":"spin"}}"#, outcome: .error("motor_a.mode must be one of coast, brake, hold, not \"spin\"")),
        SetCase(payload: #"{"motor_a":{"label":5}}"#, outcome: .error("motor_a.label must be a string")),
        SetCase(payload: #"{"motor_a":{"stop":"go"}}"#, outcome: .error("motor_a.stop must be one of stop")),
        SetCase(
            payload: #"{"motor_a":{"position":5}}"#,
            outcome: .error("unknown or read-only attribute \"motor_a.position\" (\(writableInMotor))")),
        SetCase(
            payload: #"{"motor_a":{"torque":5}}"#,
            outcome: .error("unknown or read-only attribute \"motor_a.torque\" (\(writableInMotor))")),
        SetCase(
            payload: #"{"motor_a":20}"#,
            outcome: .error("motor_a must be an object such as {\"speed\": …} or one of \"stop\", not 20")),
        SetCase(payload: #"{"motor_a":"stop"}"#, outcome: .attributes(["motor_a": ["stop": "stop"]])),
        SetCase(payload: "stop", attribute: "motor_a", outcome: .attributes(["motor_a": ["stop": "stop"]])),
        SetCase(payload: #"{"motor_a":"go"}"#, outcome: .error("motor_a must be an object such as {\"speed\": …} or one of \"stop\", not \"go\"")),
        SetCase(payload: #"{"motor_a":{"stop":true}}"#, outcome: .attributes(["motor_a": ["stop": "stop"]])),
        SetCase(payload: #"{"motor_a":{"stop":false}}"#, outcome: .error("motor_a.stop must be one of stop (or true), not false")),
        SetCase(payload: #"{"buttons":"up"}"#, outcome: .error("unknown or read-only attribute \"buttons\"")),
        SetCase(payload: #"{"motor_a_speed":20}"#, outcome: .attributes(["motor_a": ["speed": 20]])),
        SetCase(payload: "-20", attribute: "motor_a_speed", outcome: .attributes(["motor_a": ["speed": -20]])),
        SetCase(
            payload: #"{"motor_a_speed":20,"motor_a":{"brake":"ON"},"sensors_port_1_mode":"color"}"#,
            outcome: .attributes(["motor_a": ["speed": 20, "brake": "ON"], "sensors": ["port_1": ["mode": "color"]]])),
        SetCase(payload: #"{"motor_a_speed":300}"#, outcome: .error("motor_a.speed 300 is out of range -100–100")),
        SetCase(payload: #"{"sensors_port_1_mode":"x"}"#, outcome: .error("sensors.port_1.mode must be one of reflect")),
        SetCase(
            payload: #"{"motor_a_position":5}"#,
            outcome: .error("unknown or read-only attribute \"motor_a_position\" (writable: motor_a, sensors)")),
        SetCase(payload: #"{"buttons_up":"ON"}"#, outcome: .error("unknown or read-only attribute \"buttons_up\"")),
        SetCase(payload: #"{"motor_a":{}}"#, outcome: .error("nothing to set in motor_a")),
        SetCase(
            payload: #"{"sensors":{"port_1":{"mode":"x"}}}"#,
            outcome: .error("sensors.port_1.mode must be one of reflect, ambient, color, not \"x\"")),
        SetCase(
            payload: #"{"sensors":{"port_1":{"value":1}}}"#,
            outcome: .error("unknown or read-only attribute \"sensors.port_1.value\" (writable: sensors.port_1.mode)")),
        SetCase(
            payload: #"{"sensors":{"port_2":{"mode":"color"}}}"#,
            outcome: .error("unknown or read-only attribute \"sensors.port_2\" (writable: sensors.port_1)")),
        SetCase(
            payload: #"{"buttons":{"up":"ON"}}"#,
            outcome: .error("unknown or read-only attribute \"buttons\" (writable: motor_a, sensors)")),
        SetCase(
            payload: #"{"gatt":{"00002a19-0000-1000-8000-00805f9b34fb":"ff"}}"#,
            outcome: .error("unknown or read-only attribute \"gatt\"")),
        SetCase(
            payload: #"{"motor_a":{"speed":20},"battery":5}"#,
            outcome: .error("unknown or read-only attribute \"battery\" (writable: motor_a, sensors)")),
    ]

    @Test("nested values are validated against the leaf exposes", arguments: cases)
    func nested(_ testCase: SetCase) {
        CommandParserTests.check(testCase, device: Fixtures.brick())
    }

    @Test("a composite nested too deep for the parser is refused, not crashed on")
    func deep() {
        let payload = #"{"motor_a":"# + String(repeating: #"{"a":"#, count: 5_000) + "1" + String(repeating: "}", count: 5_001)
        #expect(throws: CommandError.self) {
            try CommandParser.parseSet(payload: Array(payload.utf8), attribute: nil, device: Fixtures.brick())
        }
    }
}
