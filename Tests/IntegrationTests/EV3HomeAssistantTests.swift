import BridgeCore
import EV3Protocol
import EV3Simulator
import Foundation
import Testing
import TestSupport

extension EV3DaemonTests {
    @Suite("An EV3 brick's entities pass Home Assistant's own schemas", .tags(.integration, .process), .timeLimit(.minutes(5)), .needs(.broker, .homeAssistant))
    struct EV3HomeAssistantTests {
        static let node = "t2m_ev3_0016533f0c1e"

        /// Values Home Assistant may send to a nested entity (through its command template), and the `/set` payload
        /// each must become; the top-level ones (LED, name) send the value itself to `/set/<attribute>`.
        static let commands: [String: [(JSONValue, String)]] = [
            "motor_a_speed": [(35, #"{"motor_a": {"speed": 35}}"#), (-100, #"{"motor_a": {"speed": -100}}"#)],
            "port_2_mode": [("color", #"{"port_2": {"mode": "color"}}"#)],
        ]

        @Test(
            "every entity of a brick with motors and each sensor kind passes Home Assistant 2024.1 (legacy) and 2025.4",
            arguments: [true, false])
        func releases(legacy: Bool) async throws {
            var setup = EV3SimulatorSetup()
            setup.motors = [.largeMotor, .mediumMotor, .noDevice, .largeMotor]
            setup.sensors = [.touch, .color, .ultrasonic, .infrared]
            let rig = try await EV3Rig.start(setup, brick: "      ports: {2: color}\n", legacy: legacy)
            rig.set(#"{"led": "green"}"#)
            try await rig.waitForState("every port read, colour mode, LED") { state in
                let ports = state["port_2"]?["color"] != nil && state["port_4"]?["proximity"] != nil
                return ports && state["motor_d"]?["position"] != nil && state["led"] == "green"
            }
            let state = try #require(try await rig.broker.retainedJSON(rig.stateTopic))
            let configs = try await rig.broker.retainedMessages(under: "homeassistant/+/\(Self.node)/+/config")
            let components = Set(configs.keys.map { $0.split(separator: "/")[1] })
            #expect(components == ["binary_sensor", "button", "number", "select", "sensor", "text"])
            let expected: Set<String> = [
                "number/motor_a_speed", "button/motor_a_stop", "sensor/motor_a_position", "button/stop_motors",
                "binary_sensor/port_1_pressed", "sensor/port_2_color", "select/port_2_mode", "sensor/port_3_distance",
                "sensor/port_4_proximity", "select/led", "text/name", "sensor/battery", "sensor/voltage", "button/beep",
                "binary_sensor/buttons_enter",
            ]
            let present = Set(configs.keys.map { topic -> String in
                let levels = topic.split(separator: "/")
                return "\(levels[1])/\(levels[3])"
            })
            #expect(expected.isSubset(of: present), "missing \(expected.subtracting(present))")
            #expect(!present.contains { $0.hasSuffix("/motor_c_speed") || $0.contains("time_ms") || $0.contains("tone") })
            #expect(configs["homeassistant/sensor/\(Self.node)/port_2_color/config"]?.json?["device_class"] == "enum")
            #expect(configs["homeassistant/text/\(Self.node)/name/config"]?.json?["max"] == 12)

            var items: [JSONValue] = []
            for topic in configs.keys.sorted() {
                let payload = try #require(configs[topic]?.json)
                let objectID = String(topic.split(separator: "/")[3])
                let states: [(JSONValue, String?)] = payload["value_template"] == nil ? [] : [(state, nil), ([:], nil)]
                let commands = (Self.commands[objectID] ?? []).map { ($0.0, Optional($0.1)) }
                items.append(HomeAssistantChecker.item(topic: topic, payload: payload, states: states, commands: commands))
            }
            let report = try await HomeAssistantChecker.check(items, with: legacy ? .legacy : .current)
            #expect(report.status == 0, "\(report.rejected.joined(separator: "\n"))")
            #expect(report.accepted.sorted() == configs.keys.sorted())
            #expect(report.logged.isEmpty, "Home Assistant logged: \(report.logged)")

            // What the buttons send is accepted on /set and reaches the brick.
            let mark = rig.simulator.receivedFrames().count
            for (objectID, frame) in [("motor_a_stop", "00 00 00 A3 00 01 00"), ("beep", "00 00 00 94 01 81 32 82 E8 03 82 C8 00")] {
                let button = try #require(configs["homeassistant/button/\(Self.node)/\(objectID)/config"]?.json)
                let topic = try #require(button["command_topic"]?.stringValue)
                rig.client.publish(topic, try #require(button["payload_press"]?.stringValue))
                try await rig.waitForFrame(frame, after: mark)
            }
            try await rig.stop()
        }
    }
}
