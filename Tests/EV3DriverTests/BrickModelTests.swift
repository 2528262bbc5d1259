import BridgeCore
@testable import EV3Driver
import EV3Protocol
import Testing

@Suite("EV3 brick model: ports followed through plugs, unplugs and mode changes")
struct BrickModelTests {
    static func port(
        _ port: BrickPort, _ type: EV3DeviceType, mode: Int8 = 0, assumed: AttachedDevice? = nil,
        values: [Float?]? = nil, motor: EV3MotorReading? = nil
    ) -> PollResult {
        .port(PortReading(port: port, typeMode: EV3TypeMode(type: type, mode: mode), assumed: assumed, motor: motor, values: values))
    }

    static let touch = AttachedDevice(type: .touch, mode: 0)

    @Test("a sensor is found, read, switched to another mode, unplugged")
    func sensorLifecycle() {
        var model = BrickModel()
        do { let changed = model.apply([Self.port(.sensor(1), .touch)]); #expect(changed) }
        #expect(model.state["port_1"] == ["type": "touch", "mode": "touch"])
        #expect(model.ports[.sensor(1)] == Self.touch)

        do { let changed = model.apply([Self.port(.sensor(1), .touch, assumed: Self.touch, values: [1])]); #expect(!changed) }
        #expect(model.state["port_1"] == ["type": "touch", "mode": "touch", "pressed": "ON"])

        // Switched to BUMPS: what was read in TOUCH mode is not taken as bumps, nor kept as pressed.
        do { let changed = model.apply([Self.port(.sensor(1), .touch, mode: 1, assumed: Self.touch, values: [1])]); #expect(changed) }
        #expect(model.state["port_1"] == ["type": "touch", "mode": "bumps"])
        let bumps = AttachedDevice(type: .touch, mode: 1)
        do { let changed = model.apply([Self.port(.sensor(1), .touch, mode: 1, assumed: bumps, values: [3])]); #expect(!changed) }
        #expect(model.state["port_1"]?["bumps"] == 3)

        do { let changed = model.apply([Self.port(.sensor(1), .initializing)]); #expect(!changed) }
        #expect(model.state["port_1"]?["bumps"] == 3)
        do { let changed = model.apply([Self.port(.sensor(1), .noDevice)]); #expect(changed) }
        #expect(model.state["port_1"] == nil && model.ports.isEmpty)
    }

    @Test("values of an empty reading are null; a colour number outside the table is null too")
    func sentinels() {
        var model = BrickModel()
        let color = AttachedDevice(type: .color, mode: 2)
        _ = model.apply([Self.port(.sensor(2), .color, mode: 2)])
        _ = model.apply([Self.port(.sensor(2), .color, mode: 2, assumed: color, values: [nil])])
        #expect(model.state["port_2"] == ["type": "color", "mode": "color", "color": .null])
        _ = model.apply([Self.port(.sensor(2), .color, mode: 2, assumed: color, values: [5])])
        #expect(model.state["port_2"]?["color"] == "red")
        _ = model.apply([Self.port(.sensor(2), .color, mode: 2, assumed: color, values: [9])])
        #expect(model.state["port_2"]?["color"] == .null)
    }

    @Test("a motor: type, speed and position; a motor swapped for another type is re-announced")
    func motor() {
        var model = BrickModel()
        do { let changed = model.apply([Self.port(.motor(.a), .largeMotor, mode: 0)]); #expect(changed) }
        let large = AttachedDevice(type: .largeMotor, mode: 0)
        let reading = EV3MotorReading(speed: 50, tacho: 720)
        do { let changed = model.apply([Self.port(.motor(.a), .largeMotor, mode: 2, assumed: large, motor: reading)]); #expect(!changed) }
        #expect(model.state["motor_a"] == ["type": "large", "speed": 50, "position": 720])
        do { let changed = model.apply([Self.port(.motor(.a), .mediumMotor, assumed: large, motor: reading)]); #expect(changed) }
        #expect(model.state["motor_a"] == ["type": "medium"])
        do { let changed = model.apply([Self.port(.motor(.b), .noDevice)]); #expect(!changed) }
        #expect(model.state["motor_b"] == nil)
    }

    @Test("the brick's own values")
    func brick() {
        var model = BrickModel()
        let reading = BrickReading(
            battery: 87, voltage: 7.854, current: 0.1804, name: "robot1", pressed: [.up: true, .back: false])
        do { let changed = model.apply([.brick(reading)]); #expect(!changed) }
        #expect(model.state["battery"] == 87 && model.state["voltage"] == 7.85 && model.state["current"] == 0.18)
        #expect(model.state["name"] == "robot1")
        #expect(model.state["buttons"] == ["up": "ON", "enter": "OFF", "down": "OFF", "right": "OFF", "left": "OFF", "back": "OFF"])
    }

    @Test("the exposes follow the ports: one composite per device, the brick's own entities always")
    func exposes() {
        var model = BrickModel()
        _ = model.apply([
            Self.port(.motor(.a), .largeMotor), Self.port(.sensor(1), .touch), Self.port(.sensor(2), .color, mode: 2),
            Self.port(.sensor(3), .ultrasonic), Self.port(.sensor(4), .gyro, mode: 3),
        ])
        let ids = model.exposes.flatMap(\.leaves).filter { $0.expose.access.contains(.state) || $0.expose.kind == .action }
            .map(\.objectID)
        #expect(
            ids == [
                "battery", "voltage", "current", "buttons_up", "buttons_enter", "buttons_down", "buttons_right",
                "buttons_left", "buttons_back", "motor_a_speed", "motor_a_position", "motor_a_type", "motor_a_stop",
                "port_1_pressed", "port_1_mode", "port_1_type", "port_2_color", "port_2_mode", "port_2_type",
                "port_3_distance", "port_3_mode", "port_3_type", "port_4_angle", "port_4_rate", "port_4_mode",
                "port_4_type", "stop_motors", "led", "name", "beep",
            ])
        let leaves = model.exposes.flatMap(\.leaves)
        #expect(leaves.first { $0.objectID == "port_1_pressed" }?.expose.kind == .binary)
        #expect(leaves.first { $0.objectID == "port_2_color" }?.expose.values == SensorValues.colors)
        #expect(leaves.first { $0.objectID == "port_3_distance" }?.expose.deviceClass == "distance")
        #expect(leaves.first { $0.objectID == "port_2_mode" }?.expose.values == ["reflected", "ambient", "color", "rgb"])
        #expect(leaves.first { $0.objectID == "name" }?.expose.maximum == 12)
    }

    @Test("state changes: values, nested values, and keys that went away", arguments: [
        ([:], ["a": 1], ["a": 1]),
        (["a": 1], ["a": 1], [:]),
        (["a": 1, "b": 2], ["a": 1], ["b": .null]),
        (["m": ["x": 1, "y": 2]], ["m": ["x": 1, "y": 3]], ["m": ["y": 3]]),
        (["m": ["x": 1, "y": 2]], ["m": ["x": 1]], ["m": ["y": .null]]),
        (["m": ["x": 1]], ["m": 5], ["m": 5]),
        ([:], ["v": .null], [:]),
    ] as [([String: JSONValue], [String: JSONValue], [String: JSONValue])])
    func stateChange(_ old: [String: JSONValue], _ new: [String: JSONValue], _ expected: [String: JSONValue]) {
        let change = StateChange.between(old, new)
        #expect(change == expected)
        #expect(old.merging(state: change).filter { $0.value != .null } == new.filter { $0.value != .null })
    }
}

@Suite("Values no brick reports")
struct ReadingBoundsTests {
    static func brick(battery: Int8 = 80, voltage: Float? = 7.9, current: Float? = 0.2, pressed: Bool?? = false) -> PollResult {
        var buttons: [EV3Button: Bool?] = Dictionary(uniqueKeysWithValues: EV3Button.allCases.map { ($0, false) })
        if let pressed { buttons[.up] = pressed }
        return .brick(BrickReading(battery: battery, voltage: voltage, current: current, name: "robot", pressed: buttons))
    }

    static let rows: [(PollResult, Bool)] = [
        (brick(), true), (brick(voltage: nil, current: nil), true), (brick(pressed: true), true),
        (brick(battery: 0), true), (brick(battery: 100), true),
        (brick(battery: -3), false), (brick(battery: 101), false),
        (brick(current: 1.7e38), false), (brick(current: .nan), false), (brick(current: -5), false),
        (brick(voltage: .infinity), false), (brick(voltage: 40), false),
        (brick(pressed: .some(nil)), false),
    ]

    @Test("the brick's own values", arguments: rows)
    func brickValues(result: PollResult, plausible: Bool) {
        #expect((ReadingBounds.problem(result) == nil) == plausible, "\(result)")
    }

    @Test("a mode's values and a motor's speed", arguments: [
        (EV3SensorMode.color, Float(7), true), (.color, 8, false), (.reflected, 100, true), (.reflected, 1e30, false),
        (.touch, 1, true), (.touch, 2, false), (.rate, -440, true), (.rate, .nan, false), (.distance, 255, true),
    ])
    func modes(mode: EV3SensorMode, value: Float, plausible: Bool) {
        let device = AttachedDevice(type: mode.device, mode: Int8(mode.number))
        let reading = PortReading(
            port: .sensor(1), typeMode: EV3TypeMode(type: mode.device, mode: Int8(mode.number)), assumed: device, values: [value])
        #expect((ReadingBounds.problem(.port(reading)) == nil) == plausible, "\(mode) \(value)")
    }

    @Test("values read in the mode a sensor has just left are no reason to drop what it says it is now")
    func modeLeft() {
        let color = AttachedDevice(type: .color, mode: 2)
        let reading = PortReading(port: .sensor(2), typeMode: EV3TypeMode(type: .color, mode: 1), assumed: color, values: [12])
        #expect(ReadingBounds.problem(.port(reading)) == nil)
    }

    @Test("a PRESSED answer other than 0 or 1 is no answer", arguments: [(UInt8(0), false as Bool?), (1, true), (0xB7, nil), (0xFF, nil)])
    func pressed(byte: UInt8, expected: Bool?) throws {
        var batch = EV3Batch()
        let button = batch.append(.buttonPressed(.up))
        let reply = EV3DirectReply(counter: 0, status: .ok, globals: [byte])
        #expect(try batch.read(button, from: reply) == expected)
    }
}
