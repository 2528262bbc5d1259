import BridgeCore
@testable import EV3Driver
import EV3Link
import EV3Protocol
import Testing
import TestSupport

/// A `/set` as the bridge hands it over (already validated against the exposes), and what goes to the brick.
struct CommandCase: Sendable, CustomTestStringConvertible {
    var attributes: [String: JSONValue]
    /// The bytecodes sent, in order: stops, then motor set-points, then the one batch of the rest.
    var bytecodes: [String] = []
    var error: String? = nil
    var testDescription: String { JSONValue.object(attributes).jsonString }
}

@Suite("EV3 /set → what the brick gets")
struct BrickCommandTests {
    static let cases: [CommandCase] = [
        CommandCase(attributes: ["motor_a": ["speed": 50]], bytecodes: ["A5 00 01 81 32 A6 00 01"]),
        CommandCase(attributes: ["motor_b": ["power": -30]], bytecodes: ["A4 00 02 22 A6 00 02"]),
        CommandCase(attributes: ["motor_a": ["speed": 20.4]], bytecodes: ["A5 00 01 14 A6 00 01"]),
        CommandCase(
            attributes: ["motor_c": ["speed": 50, "degrees": 900]],
            bytecodes: ["AE 00 04 81 32 00 82 84 03 00 01"]),
        CommandCase(
            attributes: ["motor_c": ["power": 40, "time_ms": 1500, "brake": "OFF"]],
            bytecodes: ["AD 00 04 81 28 00 82 DC 05 00 00"]),
        CommandCase(attributes: ["motor_d": ["stop": "stop"]], bytecodes: ["A3 00 08 00"]),
        CommandCase(attributes: ["motor_d": ["stop": "stop", "brake": "ON"]], bytecodes: ["A3 00 08 01"]),
        CommandCase(attributes: ["stop": "stop"], bytecodes: ["A3 00 0F 00"]),
        CommandCase(
            attributes: ["stop": "stop", "motor_a": ["speed": 10]], bytecodes: ["A3 00 0F 00", "A5 00 01 0A A6 00 01"]),
        CommandCase(attributes: ["led": "green_pulse"], bytecodes: ["82 1B 07"]),
        CommandCase(attributes: ["led": "off"], bytecodes: ["82 1B 00"]),
        CommandCase(
            attributes: ["tone": ["frequency": 440, "duration_ms": 500, "volume": 50]],
            bytecodes: ["94 01 81 32 82 B8 01 82 F4 01"]),
        CommandCase(attributes: ["tone": ["frequency": 440]], bytecodes: ["94 01 81 32 82 B8 01 82 C8 00"]),
        CommandCase(attributes: ["beep": "beep"], bytecodes: ["94 01 81 32 82 E8 03 82 C8 00"]),
        CommandCase(attributes: ["sound": "Startup"], bytecodes: ["94 02 81 32 84 53 74 61 72 74 75 70 00"]),
        CommandCase(attributes: ["name": "robot1"], bytecodes: ["D4 08 84 72 6F 62 6F 74 31 00"]),
        CommandCase(attributes: ["led": "red", "beep": "beep"], bytecodes: ["94 01 81 32 82 E8 03 82 C8 00 82 1B 02"]),
        CommandCase(attributes: ["motor_a": ["speed": 10, "power": 10]], error: "motor_a: give speed or power, not both"),
        CommandCase(attributes: ["motor_a": ["degrees": 90]], error: "motor_a needs speed or power (or stop)"),
        CommandCase(
            attributes: ["motor_a": ["speed": 10, "degrees": 90, "time_ms": 100]],
            error: "motor_a: give time_ms or degrees, not both"),
        CommandCase(
            attributes: ["motor_a": ["speed": 10, "brake": "ON"]],
            error: "motor_a: brake applies to a move with time_ms or degrees, or to stop"),
        CommandCase(attributes: ["motor_a": ["stop": "stop", "speed": 10]], error: "motor_a: stop cannot go with speed"),
        CommandCase(attributes: ["name": "ünïcödé-12"], error: "name: SET_BRICKNAME name: 14 bytes, more than 12"),
        CommandCase(attributes: ["sound": "a\u{0}b"], error: "sound: PLAY file: contains a NUL byte"),
        CommandCase(attributes: ["tone": ["frequency": 20]], error: "tone: TONE frequency 20 is outside 250...10000"),
        // Beyond any integer: refused, never converted (converting traps).
        CommandCase(attributes: ["motor_a": ["speed": 1e19]], error: "motor_a: speed 1e+19 is out of range"),
        CommandCase(attributes: ["motor_b": ["power": -1e300]], error: "motor_b: power -1e+300 is out of range"),
        CommandCase(attributes: ["motor_c": ["speed": 10, "time_ms": 9.3e18]], error: "motor_c: time_ms 9.3e+18 is out of range"),
        CommandCase(attributes: ["motor_c": ["speed": 10, "degrees": -1e19]], error: "motor_c: degrees -1e+19 is out of range"),
        CommandCase(attributes: ["tone": ["frequency": 1e19]], error: "tone: frequency 1e+19 is out of range"),
        CommandCase(attributes: ["tone": ["duration_ms": 1e19]], error: "tone: duration_ms 1e+19 is out of range"),
        CommandCase(attributes: ["tone": ["volume": -1e19]], error: "tone: volume -1e+19 is out of range"),
    ]

    @Test("each command becomes exactly these bytecodes, or is refused whole", arguments: cases)
    func command(_ testCase: CommandCase) {
        do {
            let commands = try BrickCommands(testCase.attributes)
            #expect(testCase.error == nil, "accepted")
            #expect(Self.bytecodes(commands) == testCase.bytecodes)
        } catch {
            #expect(error.message == testCase.error)
        }
    }

    @Test("sensor modes are picked by port")
    func modes() throws {
        let commands = try BrickCommands(["port_2": ["mode": "color"], "port_4": ["mode": "rate"]])
        #expect(commands.modes == [2: .color, 4: .rate])
        #expect(commands.instructions.isEmpty && commands.motors.isEmpty)
    }

    /// The bytecode of each thing sent (after the 7-byte header), in the order the controller sends them.
    static func bytecodes(_ commands: BrickCommands) -> [String] {
        var sent: [[UInt8]] = commands.stops.map { stop in
            (try? EV3Instruction.outputStop(stop.ports, brake: stop.brake).bytes()) ?? []
        }
        for (port, motor) in commands.motors.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            sent.append(((try? motor.instructions(for: port)) ?? []).flatMap { $0.bytes() })
        }
        if !commands.instructions.isEmpty { sent.append(commands.instructions.flatMap { $0.bytes() }) }
        return sent.map(hex)
    }
}
