@testable import Bridge
import BridgeCore
import Testing
import TestSupport

/// The Home Assistant entity one expose leaf becomes: its component and the keys that differ between kinds.
struct ShapeCase: Sendable, CustomTestStringConvertible {
    var path: [String]
    var component: String
    var keys: [String: JSONValue]
    var testDescription: String { path.joined(separator: ".") + " → " + component }
}

@Suite("Expose leaves → Home Assistant entities")
struct CompositeDiscoveryTests {
    static let state: JSONValue = "t2m/brick"
    static let set: JSONValue = "t2m/brick/set"

    static func reads(_ path: String..., missing: String = "None") -> JSONValue {
        let accesses = path.indices.map { "value_json" + path[...$0].map { "['\($0)']" }.joined() }
        return .string("{{ \(accesses.last!) if \(accesses.map { "\($0) is defined" }.joined(separator: " and ")) else '\(missing)' }}")
    }

    static let cases: [ShapeCase] = [
        ShapeCase(
            path: ["motor_a", "speed"], component: "number",
            keys: [
                "state_topic": state,
                "value_template":
                    "{{ value_json['motor_a']['speed'] if value_json['motor_a'] is defined and value_json['motor_a']['speed'] is defined else 'None' }}",
                "command_topic": set,
                "command_template": #"{"motor_a": {"speed": {{ value | tojson }}}}"#, "min": -100, "max": 100, "step": 1,
                "unit_of_measurement": "%",
            ]),
        ShapeCase(
            path: ["motor_a", "position"], component: "sensor",
            keys: [
                "state_topic": state, "value_template": reads("motor_a", "position"), "unit_of_measurement": "°",
                "state_class": "measurement",
            ]),
        ShapeCase(
            path: ["motor_a", "brake"], component: "switch",
            keys: [
                "state_topic": state, "value_template": reads("motor_a", "brake"), "command_topic": set,
                "payload_on": #"{"motor_a":{"brake":"ON"}}"#, "payload_off": #"{"motor_a":{"brake":"OFF"}}"#,
                "state_on": "ON", "state_off": "OFF",
            ]),
        ShapeCase(
            path: ["motor_a", "mode"], component: "select",
            keys: [
                "state_topic": state, "value_template": reads("motor_a", "mode"), "command_topic": set,
                "command_template": #"{"motor_a": {"mode": {{ value | tojson }}}}"#, "options": ["coast", "brake", "hold"],
            ]),
        ShapeCase(
            path: ["motor_a", "label"], component: "text",
            keys: [
                "state_topic": state, "value_template": reads("motor_a", "label", missing: ""), "command_topic": set,
                "command_template": #"{"motor_a": {"label": {{ value | tojson }}}}"#,
            ]),
        ShapeCase(
            path: ["motor_a", "running"], component: "binary_sensor",
            keys: [
                "state_topic": state, "value_template": reads("motor_a", "running"), "payload_on": "ON", "payload_off": "OFF",
                "device_class": "running",
            ]),
        ShapeCase(
            path: ["motor_a", "type"], component: "sensor",
            keys: [
                "state_topic": state, "value_template": reads("motor_a", "type"), "device_class": "enum",
                "options": ["large", "medium", "none"],
            ]),
        ShapeCase(
            path: ["motor_a", "stop"], component: "button",
            keys: ["command_topic": set, "payload_press": #"{"motor_a":{"stop":"stop"}}"#]),
        ShapeCase(
            path: ["sensors", "port_1", "mode"], component: "select",
            keys: [
                "state_topic": state, "value_template": reads("sensors", "port_1", "mode"), "command_topic": set,
                "command_template": #"{"sensors": {"port_1": {"mode": {{ value | tojson }}}}}"#,
                "options": ["reflect", "ambient", "color"],
            ]),
        ShapeCase(
            path: ["gatt", "00002a19-0000-1000-8000-00805f9b34fb"], component: "sensor",
            keys: ["state_topic": state, "value_template": reads("gatt", "00002a19-0000-1000-8000-00805f9b34fb")]),
        ShapeCase(
            path: ["battery"], component: "sensor",
            keys: [
                "state_topic": state, "value_template": reads("battery"), "unit_of_measurement": "%", "device_class": "battery",
            ]),
    ]

    @Test("each leaf kind maps to its component, reading and writing its own path", arguments: cases)
    func shape(_ testCase: ShapeCase) throws {
        let leaf = try #require(Fixtures.brick().leaves.first { $0.path == testCase.path })
        for legacy in [false, true] {
            let (component, keys) = try #require(
                EntityShapes(topics: Topics(base: "t2m"), legacy: legacy).entity(for: leaf, alias: "brick"))
            #expect(component == testCase.component)
            #expect(keys == testCase.keys)
        }
    }

    @Test("a writable text's longest length becomes the text entity's max; no min, so a state without it shows empty")
    func textLength() throws {
        var name = Expose.text("name", name: "Name", access: [.state, .set], maxLength: 12)
        name.minimum = 1
        let leaf = try #require(name.leaves.first)
        let keys = try #require(EntityShapes(topics: Topics(base: "t2m"), legacy: false).entity(for: leaf, alias: "brick")).1
        #expect(keys["max"] == 12 && keys["min"] == nil)
        #expect(keys["command_topic"] == "t2m/brick/set/name")
    }

    @Test("top-level exposes keep /set/<attribute> and plain payloads")
    func flat() throws {
        let shapes = EntityShapes(topics: Topics(base: "t2m"), legacy: false)
        func keys(_ property: String) throws -> [String: JSONValue] {
            let leaf = try #require(Fixtures.sensorBox().leaves.first { $0.path == [property] })
            return try #require(shapes.entity(for: leaf, alias: "box")).1
        }
        let interval = try keys("interval")
        #expect(interval["command_topic"] == "t2m/box/set/interval")
        #expect(interval["command_template"] == nil)
        let led = try keys("led")
        #expect(led["payload_on"] == "ON")
        #expect(led["command_topic"] == "t2m/box/set/led")
        #expect(try keys("identify")["payload_press"] == #"{"identify":"blink"}"#)
    }

    @Test(
        "no entity for a light or scene inside a composite, or for a key that cannot stand in a template or topic",
        arguments: [
            Expose.composite("group", name: "Group", features: [.light(LightFeatures(colorModes: []))]),
            Expose.composite("group", name: "Group", features: [.scene(objectID: "evening", name: "Evening", value: "e")]),
            Expose.composite("odd", name: "Odd", features: [.numeric("a b", name: "Spaced")]),
            Expose.composite("o'k", name: "Quoted", features: [.numeric("x", name: "X")]),
            Expose.composite("braces", name: "Braces", features: [.text("{{x}}", name: "Jinja")]),
            Expose.composite("move", name: "Move", features: [.numeric("time_ms", name: "Time", access: [.set], range: 1...9)]),
            Expose.composite("tone", name: "Tone", features: [.binary("loud", name: "Loud", access: [.set])]),
            Expose.text("sound", name: "Sound", access: [.set]),
        ])
    func skipped(_ expose: Expose) throws {
        let leaf = try #require(expose.leaves.first)
        #expect(EntityShapes(topics: Topics(base: "t2m"), legacy: false).entity(for: leaf, alias: "brick").map(\.0) == nil)
    }
}

@Suite("Nested driver state through the inbox", .timeLimit(.minutes(1)))
struct CompositeStateTests {
    @Test("a description that loses exposes (a motor unplugged) clears their entities and keeps the others")
    func lostExposes() async throws {
        let bridge = try MemoryBridge(yaml: TestConfig.yaml(port: 1883))
        let driver = bridge.driver()
        var brick = Fixtures.brick()
        driver.emit(.discovered(brick))
        brick.exposes.removeFirst()
        driver.emit(.discovered(brick))
        try await bridge.run()
        _ = try await bridge.request("health_check")
        let node = "homeassistant/+/t2m_ev3_0016535d7e2d/+/config"
        let configs = bridge.transport.published.filter { TopicFilter.matches(node, $0.topic) }
        let motorTopics = Set(configs.filter { $0.topic.contains("/motor_a_") }.map(\.topic))
        #expect(motorTopics.count == Fixtures.motor.leaves.count)
        for topic in motorTopics {
            #expect(configs.last { $0.topic == topic }?.payload == [], "\(topic) not cleared")
        }
        let battery = configs.filter { $0.topic.hasSuffix("/battery/config") }
        #expect(battery.count == 1 && battery.first?.payload.isEmpty == false)
        await bridge.stop()
    }

    @Test("nested changes queued while the bridge is busy reach MQTT merged level by level, nulls included")
    func queuedNestedChanges() async throws {
        let bridge = try MemoryBridge(yaml: TestConfig.yaml(port: 1883))
        let driver = bridge.driver()
        let id = Fixtures.brick().id
        driver.emit(.discovered(Fixtures.brick()))
        driver.emit(.state(id, ["motor_a": ["speed": 0, "position": 0], "gatt": ["a": "01", "b": "02"]]))
        for step in 1...100 { driver.emit(.state(id, ["motor_a": ["position": .number(Double(step))]])) }
        driver.emit(.state(id, ["motor_a": ["speed": 20], "gatt": ["a": .null]]))
        driver.emit(.state(id, ["sensors": ["port_1": ["value": 1, "mode": "reflect"]]]))
        // Any other event of the device ends the merging; then a whole composite removed and partly set again
        // cannot fold into one change (merged into the state, it would keep port_1).
        driver.emit(.status(id, .ready))
        driver.emit(.state(id, ["sensors": .null]))
        driver.emit(.state(id, ["sensors": ["port_2": ["value": 7]]]))
        try await bridge.run()
        _ = try await bridge.request("health_check")
        let states = bridge.transport.published.filter { $0.topic == "t2m/ev3_0016535d7e2d" }
        // Before the status, one publish; the status's own; the removal; the partial set after it.
        #expect(states.count == 4)
        #expect(
            states.first?.json == [
                "motor_a": ["speed": 20, "position": 100], "gatt": ["b": "02"],
                "sensors": ["port_1": ["value": 1, "mode": "reflect"]],
            ])
        #expect(
            states.last?.json == [
                "motor_a": ["speed": 20, "position": 100], "gatt": ["b": "02"], "sensors": ["port_2": ["value": 7]],
                "status": "ready",
            ])
        await bridge.stop()
    }
}
