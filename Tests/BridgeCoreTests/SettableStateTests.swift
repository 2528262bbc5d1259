import BLEModels
import BridgeCore
import Testing

/// The part of a state a passed claim carries: what `/set` could write back, as one valid command.
@Suite("DeviceDescriptor.settableState")
struct SettableStateTests {
    static let nova = DeviceDescriptor(
        id: DeviceID("ble_aabbccddee01")!, kind: "light", manufacturer: "Nova", model: "Flash", exposes: NovaLight.exposes + [
            .text("room", name: "Room"), .numeric("rssi", name: "RSSI", unit: "dBm"),
        ], switchable: true)

    @Test("a light keeps its light keys and settable values; readings, nulls and color_mode are left out")
    func light() throws {
        let state: [String: JSONValue] = [
            "state": "ON", "brightness": 123, "color_temp": 4000, "color_mode": "color_temp", "effect": .null,
            "timeout": 3000, "room": "kitchen", "rssi": -60, "status": "ready",
        ]
        let settable = Self.nova.settableState(state)
        #expect(settable == ["state": "ON", "brightness": 123, "color_temp": 4000, "timeout": 3000])
        // Sent back as one /set, it parses.
        let command = try CommandParser.parseSet(payload: JSONValue.object(settable).jsonBytes, attribute: nil, device: Self.nova)
        #expect(command.light?.brightness == 123)
    }

    @Test("of color and color_temp only the one color_mode names; composites keep their settable leaves")
    func colorAndComposite() {
        let bulb = DeviceDescriptor(
            id: DeviceID("ble_aabbccddee02")!, kind: "light", manufacturer: "x", model: "y",
            exposes: [
                .light(LightFeatures(colorModes: [.hs, .colorTemp], kelvinRange: 2000...6500)),
                .composite("motor_a", name: "Motor A", features: [
                    .numeric("speed", name: "Speed", access: [.state, .set]), .numeric("position", name: "Position"),
                    .action("stop", name: "Stop", payload: "stop"),
                ]),
            ])
        let state: [String: JSONValue] = [
            "state": "ON", "color": ["hue": 120, "saturation": 50], "color_temp": 3000, "color_mode": "hs",
            "motor_a": ["speed": 20, "position": 360],
        ]
        #expect(bulb.settableState(state) == ["state": "ON", "color": ["hue": 120, "saturation": 50], "motor_a": ["speed": 20]])
    }
}
