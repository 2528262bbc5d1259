import EV3Driver
import BridgeCore
import Foundation
import Testing
import TestSupport

/// A device with composite exposes through the whole bridge: its nested state, `bridge/devices`, one Home
/// Assistant entity per leaf accepted (and rendered) by both Home Assistant releases, and the commands those
/// entities send accepted on `/set`.
@Suite("Composite exposes through the bridge and Home Assistant", .tags(.integration), .timeLimit(.minutes(5)))
struct CompositeDeviceTests {
    static let node = "t2m_ev3_0016535d7e2d"

    /// What each entity's value template must render: the leaf's value in `brickState`, as Jinja prints it.
    static func rendered(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        default: value.jsonString
        }
    }

    /// Values Home Assistant may send to an entity with a command template, and the `/set` payload each becomes.
    static let commands: [String: [(JSONValue, String)]] = [
        "motor_a_speed": [(20, #"{"motor_a": {"speed": 20}}"#), (-35.5, #"{"motor_a": {"speed": -35.5}}"#)],
        "motor_a_mode": [("hold", #"{"motor_a": {"mode": "hold"}}"#)],
        "motor_a_label": [(#"left "wheel""#, #"{"motor_a": {"label": "left \"wheel\""}}"#)],
        "sensors_port_1_mode": [("color", #"{"sensors": {"port_1": {"mode": "color"}}}"#)],
    ]

    @Test("every composite leaf passes Home Assistant 2024.1 (legacy mode) and 2025.4 (default mode)", .needs(.broker, .homeAssistant), arguments: [true, false])
    func releases(legacy: Bool) async throws {
        let broker = try await Broker.start()
        let bridge = try await InProcessBridge.start(
            broker: broker, yaml: TestConfig.yaml(port: broker.port, legacy: legacy), integrations: [.ev3])
        let brick = Fixtures.brick()
        bridge.driver(.ev3).announce(brick, state: Fixtures.brickState)
        try await broker.waitForRetained("t2m/bridge/devices") { $0.json?.arrayCount == 1 }
        let configs = try await broker.retainedMessages(under: "homeassistant/+/\(Self.node)/+/config")
        let leaves = brick.leaves
        #expect(configs.count == leaves.count)

        var items: [JSONValue] = []
        for leaf in leaves {
            let topic = try #require(configs.keys.first { $0.hasSuffix("/\(leaf.objectID)/config") }, "\(leaf.objectID)")
            let payload = try #require(configs[topic]?.json)
            var states: [(JSONValue, String?)] = []
            if payload["value_template"] != nil {
                let value = try #require(leaf.path.reduce(Optional(JSONValue.object(Fixtures.brickState))) { $0?[$1] })
                let missing = leaf.expose.kind == .text && leaf.expose.isWritable ? "" : "None"
                states = [
                    (.object(Fixtures.brickState), Self.rendered(value)), ([:], missing), (["motor_a": "stop"], missing),
                    (["sensors": ["port_1": 5], "gatt": [:], "buttons": .null], missing),
                ]
            }
            let commands = (Self.commands[leaf.objectID] ?? []).map { ($0.0, Optional($0.1)) }
            items.append(HomeAssistantChecker.item(topic: topic, payload: payload, states: states, commands: commands))
        }
        let report = try await HomeAssistantChecker.check(items, with: legacy ? .legacy : .current)
        #expect(report.status == 0, "\(report.rejected.joined(separator: "\n"))")
        #expect(report.accepted.sorted() == configs.keys.sorted())
        #expect(report.logged.isEmpty, "Home Assistant logged: \(report.logged)")
        await bridge.stop()
    }

    @Test("what the entities send on /set reaches the driver as nested attributes; bridge/devices lists the composites", .needs(.broker))
    func commandsAndInventory() async throws {
        let broker = try await Broker.start()
        let bridge = try await InProcessBridge.start(broker: broker, integrations: [.ev3])
        let driver = bridge.driver(.ev3)
        driver.announce(Fixtures.brick(), state: Fixtures.brickState)
        let inventory = try await broker.waitForRetained("t2m/bridge/devices") { $0.json?.arrayCount == 1 }
        let exposes = try #require(inventory.json?.entries(where: "id", is: "ev3_0016535d7e2d")?["exposes"])
        guard case .array(let list) = exposes else { throw TestFailure("exposes is not an array: \(exposes)") }
        #expect(list.map { $0["type"] } == ["composite", "composite", "composite", "composite", "numeric"])
        #expect(list[0]["features"]?.arrayCount == 8)
        #expect(list[0]["property"] == "motor_a")

        let configs = try await broker.retainedMessages(under: "homeassistant/+/\(Self.node)/+/config")
        func config(_ component: String, _ objectID: String) throws -> JSONValue {
            try #require(configs["homeassistant/\(component)/\(Self.node)/\(objectID)/config"]?.json, "\(objectID)")
        }
        let brake = try config("switch", "motor_a_brake")
        let stop = try config("button", "motor_a_stop")
        let sent: [(String, String, [String: JSONValue])] = [
            (try #require(brake["command_topic"]?.stringValue), try #require(brake["payload_off"]?.stringValue), ["motor_a": ["brake": "OFF"]]),
            (try #require(stop["command_topic"]?.stringValue), try #require(stop["payload_press"]?.stringValue), ["motor_a": ["stop": "stop"]]),
            ("t2m/ev3_0016535d7e2d/set", #"{"motor_a": {"speed": -35.5}}"#, ["motor_a": ["speed": -35.5]]),
            ("t2m/ev3_0016535d7e2d/set", #"{"sensors": {"port_1": {"mode": "color"}}}"#, ["sensors": ["port_1": ["mode": "color"]]]),
            ("t2m/ev3_0016535d7e2d/set/motor_a", #"{"speed": 10, "mode": "coast"}"#, ["motor_a": ["speed": 10, "mode": "coast"]]),
        ]
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("t2m/bridge/event")
        for (index, (topic, payload, expected)) in sent.enumerated() {
            client.publish(topic, payload)
            let received = try await driver.waitForCommand(at: index)
            #expect(received.command == .set(SetCommand(attributes: expected)), "\(payload)")
        }
        client.publish("t2m/ev3_0016535d7e2d/set", #"{"motor_a": {"speed": 101}}"#)
        let failure = try await client.waitForMessage(topic: "t2m/bridge/event") { $0.json?["type"] == "command_failed" }
        #expect(failure.json?["data"]?["error"] == "motor_a.speed 101 is out of range -100–100")
        #expect(driver.commands.count == sent.count)

        // A partial nested change keeps the rest of the composite.
        driver.emit(.state(Fixtures.brick().id, ["motor_a": ["position": 720], "gatt": ["00002a19-0000-1000-8000-00805f9b34fb": .null]]))
        let state = try await broker.waitForRetained("t2m/ev3_0016535d7e2d") { $0.json?["motor_a"]?["position"] == 720 }
        #expect(state.json?["motor_a"]?["speed"] == 20)
        #expect(state.json?["motor_a"]?["label"] == "left wheel")
        #expect(state.json?["gatt"] == [:])
        await client.close()
        await bridge.stop()
    }
}
