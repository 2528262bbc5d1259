import BLEModels
import BridgeCore
import Testing

@Suite("Nova flashes as lights")
struct NovaLightTests {
    static let lit = NovaLightState(isOn: true, brightness: 200, kelvin: 3000, timeout: 2000)
    static let dark = NovaLightState(isOn: false, brightness: 200, kelvin: 3000)

    @Test(
        "commands change the state as Home Assistant expects",
        arguments: [
            (dark, LightCommand(power: .on), NovaLightState(isOn: true, brightness: 200, kelvin: 3000)),
            (lit, LightCommand(power: .off), NovaLightState(isOn: false, brightness: 200, kelvin: 3000, timeout: 2000)),
            (lit, LightCommand(power: .toggle), NovaLightState(brightness: 200, kelvin: 3000, timeout: 2000)),
            (dark, LightCommand(power: .toggle), NovaLightState(isOn: true, brightness: 200, kelvin: 3000)),
            (dark, LightCommand(brightness: 10), NovaLightState(isOn: true, brightness: 10, kelvin: 3000)),
            (lit, LightCommand(brightness: 0), NovaLightState(brightness: 200, kelvin: 3000, timeout: 2000)),
            (dark, LightCommand(kelvin: 6000), NovaLightState(brightness: 200, kelvin: 6000)),
            (
                lit, LightCommand(power: .on, kelvin: 9000),
                NovaLightState(isOn: true, brightness: 200, kelvin: 6500, timeout: 2000)
            ),
            (
                dark, LightCommand(effect: "warm"),
                NovaLightState(isOn: true, brightness: 255, kelvin: 2700, effect: .warm)
            ),
            (NovaLightState(isOn: true, effect: .bright), LightCommand(brightness: 100),
                NovaLightState(isOn: true, brightness: 100, kelvin: 4000)),
            (
                lit, LightCommand(power: .off, effect: "gentle"),
                NovaLightState(brightness: 84, kelvin: 2700, effect: .gentle, timeout: 2000)
            ),
        ])
    func commands(before: NovaLightState, command: LightCommand, after: NovaLightState) {
        #expect(before.applying(command) == after)
    }

    @Test(
        "a /set payload is parsed against the exposes and applied, timeout included",
        arguments: [
            (#"{"state":"ON","brightness":255,"color_temp":6500}"#, "(01:L,00,FF,05DC)"),
            (#"{"state":"ON","color_temp":370,"timeout":3000}"#, "(01:L,FF,00,0BB8)"),
            (#"{"effect":"Neutral","timeout":9000}"#, "(01:L,7F,7F,05DC)"),
            (#"{"state":"OFF"}"#, "(01:O)"),
            ("ON", "(01:L,FF,FF,05DC)"),
        ])
    func setPayloads(payload: String, frame: String) throws {
        let device = DeviceDescriptor(
            id: .ble(mac: "AA:BB:CC:DD:EE:FF"), kind: "light", manufacturer: "Nova", model: "Nova flash",
            exposes: NovaLight.exposes, switchable: true)
        let set = try CommandParser.parseSet(payload: Array(payload.utf8), attribute: nil, device: device)
        let state = NovaLightState(brightness: 255, kelvin: 3815).applying(set)
        #expect(NovaFrame(id: 1, command: state.command).description == frame)
    }

    @Test("timeouts outside 500–65535 ms are refused", arguments: [#"{"timeout":100}"#, #"{"timeout":70000}"#])
    func badTimeout(payload: String) {
        let device = DeviceDescriptor(
            id: .ble(mac: "AA:BB:CC:DD:EE:FF"), kind: "light", manufacturer: "Nova", model: "Nova flash",
            exposes: NovaLight.exposes)
        #expect(throws: CommandError.self) {
            try CommandParser.parseSet(payload: Array(payload.utf8), attribute: nil, device: device)
        }
    }

    static let states: [(NovaLightState, JSONValue)] = [
        (
            lit,
            [
                "state": "ON", "brightness": 200, "color_temp": 3000, "color_mode": "color_temp", "effect": .null,
                "timeout": 2000,
            ]
        ),
        (
            NovaLightState(effect: .gentle),
            [
                "state": "OFF", "brightness": 255, "color_temp": 4000, "color_mode": "color_temp", "effect": "gentle",
                "timeout": 1500,
            ]
        ),
    ]

    @Test("the state JSON", arguments: states)
    func json(state: NovaLightState, expected: JSONValue) {
        #expect(JSONValue.object(state.json) == expected)
    }

    @Test("renewal comes at two thirds of the flash's timeout", arguments: [
        (1500, 1000), (500, 333), (2000, 1333), (65535, 43690),
    ])
    func renewal(timeout: Int, milliseconds: Int) {
        #expect(NovaLight.renewalInterval(timeout: UInt16(timeout)) == .milliseconds(milliseconds))
        let sent = ContinuousClock.Instant.now
        let next = NovaLight.nextRenewal(after: sent, timeout: UInt16(timeout))
        #expect(next == sent.advanced(by: .milliseconds(milliseconds)))
        #expect(NovaLight.renewalInterval(timeout: UInt16(timeout)) < .milliseconds(timeout))
    }

    @Test("the light's features")
    func features() {
        #expect(NovaLight.features.kelvinRange == 2700...6500)
        #expect(NovaLight.features.supportedColorModes == [.colorTemp])
        #expect(NovaLight.features.effects == ["gentle", "warm", "bright", "neutral"])
        #expect(NovaLight.exposes.map(\.property) == ["light", "timeout"])
    }
}
