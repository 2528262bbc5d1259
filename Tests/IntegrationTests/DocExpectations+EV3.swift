import BridgeCore
import EV3Simulator
import Foundation
import TestSupport

extension DocExpectations {
    /// The demo's EV3 brick, aliased `robot`.
    static let ev3: [Row] = [
        (#"mosquitto_pub -t things2mqtt/robot/set -m '{"motor_a":{"speed":40}}'"#, motor("a", "at 40") { $0["speed"] == 40 }),
        (#"mosquitto_pub -t things2mqtt/robot/set -m '{"motor_a":{"speed":50}}'"#, motor("a", "at 50") { $0["speed"] == 50 }),
        (#"mosquitto_pub -t things2mqtt/robot/set -m '{"motor_b":{"power":-30}}'"#, motor("b", "backwards") { $0["speed"] == -30 }),
        ("mosquitto_pub -t things2mqtt/robot/set/motor_a_speed -m 25", motor("a", "at 25") { $0["speed"] == 25 }),
        (#"mosquitto_pub -t things2mqtt/robot/set -m '{"motor_b":{"power":30,"degrees":360}}'"#, step("b", degrees: 360)),
        (#"mosquitto_pub -t things2mqtt/robot/set -m '{"motor_a":{"speed":40,"degrees":360}}'"#, step("a", degrees: 360)),
        (#"mosquitto_pub -t things2mqtt/robot/set -m '{"motor_c":{"power":60,"time_ms":1500,"brake":false}}'"#, step("c", degrees: 1)),
        (
            #"mosquitto_pub -t things2mqtt/robot/set -m '{"stop":true}'"#,
            .effect { run, mark in
                try await run.ev3Frame(after: mark, opcode: 0xA3, "OUTPUT_STOP")
                try await run.state("robot", "every motor stopped") { state in
                    ["a", "b", "c"].allSatisfy { state["motor_" + $0]?["speed"] == 0 }
                }
            }
        ),
        (
            #"mosquitto_pub -t things2mqtt/robot/set -m '{"motor_a":"stop"}'"#,
            .effect { run, mark in
                try await run.ev3Frame(after: mark, opcode: 0xA3, "OUTPUT_STOP")
                try await run.state("robot", "motor A stopped") { $0["motor_a"]?["speed"] == 0 }
            }
        ),
        (
            #"mosquitto_pub -t things2mqtt/robot/set -m '{"led":"orange_flash","beep":true}'"#,
            .effect { run, mark in
                try await run.state("robot", "LED orange_flash") { $0["led"] == "orange_flash" }
                try await run.ev3Event(after: mark, "a beep") { if case .tone = $0 { true } else { false } }
            }
        ),
        (
            #"mosquitto_pub -t things2mqtt/robot/set -m '{"led":"green_pulse"}'"#,
            .effect { run, mark in
                try await run.state("robot", "LED green_pulse") { $0["led"] == "green_pulse" }
                try await run.ev3Event(after: mark, "the LED set") { if case .led = $0 { true } else { false } }
            }
        ),
        (
            #"mosquitto_pub -t things2mqtt/robot/set -m '{"tone":{"frequency":440,"duration_ms":500,"volume":50}}'"#,
            .effect { run, mark in
                try await run.ev3Event(after: mark, "440 Hz for 500 ms at 50 %") { $0 == .tone(volume: 50, frequency: 440, milliseconds: 500) }
            }
        ),
        (
            #"mosquitto_pub -t things2mqtt/robot/set -m '{"beep":true}'"#,
            .effect { run, mark in try await run.ev3Event(after: mark, "a beep") { if case .tone = $0 { true } else { false } } }
        ),
        (
            #"mosquitto_pub -t things2mqtt/robot/set -m '{"sound":"ui/Startup"}'"#,
            .effect { run, mark in
                try await run.ev3Event(after: mark, "ui/Startup played") { if case .sound(_, let file, _) = $0 { file.hasSuffix("ui/Startup") } else { false } }
            }
        ),
        (
            #"mosquitto_pub -t things2mqtt/robot/set -m '{"name":"robot1"}'"#,
            .effect { run, mark in
                try await run.ev3Event(after: mark, "the brick renamed robot1") { $0 == .renamed("robot1") }
                try await run.state("robot", "name robot1") { $0["name"] == "robot1" }
            }
        ),
        (
            #"mosquitto_pub -t things2mqtt/robot/set -m '{"port_2_mode":"color"}'"#,
            state("robot", "port 2 in colour mode") { $0["port_2"]?["mode"] == "color" && $0["port_2"]?["color"] != nil }
        ),
        (
            #"mosquitto_pub -t things2mqtt/robot/set -m '{"port_2_mode":"ambient"}'"#,
            state("robot", "port 2 reading ambient light") { $0["port_2"]?["mode"] == "ambient" && $0["port_2"]?["ambient"] != nil }
        ),
    ]

    /// An effect on one motor (`a`…`d`) of the brick.
    static func motor(_ port: String, _ what: String, _ predicate: @escaping @Sendable (JSONValue) -> Bool) -> Expectation {
        state("robot", "motor \(port.uppercased()) \(what)") { $0["motor_" + port].map(predicate) ?? false }
    }

    /// A move that ends by itself: the motor turns at least `degrees` (less 10 for the brake) and stands still again.
    static func step(_ port: String, degrees: Double) -> Expectation {
        .effect { run, mark in
            let start = run.latest("robot", before: mark)?["motor_" + port]?["position"]?.doubleValue ?? 0
            try await run.state("robot", "motor \(port.uppercased()) \(degrees)° on from \(start)° and stopped", timeout: .seconds(20)) { state in
                guard let motor = state["motor_" + port], let position = motor["position"]?.doubleValue else { return false }
                return abs(position - start) >= max(1, degrees - 10) && motor["speed"] == 0
            }
        }
    }
}
