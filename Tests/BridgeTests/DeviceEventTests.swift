@testable import Bridge
import BLEModels
import BridgeConfig
import BridgeCore
import Testing
import TestSupport

/// A broker message the bridge receives, and whether the inbox keeps it.
struct RelevanceCase: Sendable, CustomTestStringConvertible {
    var topic: String
    var retained = false
    var relevant: Bool
    var testDescription: String { "\(topic)\(retained ? " (retained)" : "") → \(relevant ? "kept" : "dropped")" }
}

@Suite("Event exposes in the bridge: entities, the inbox and the publish path", .timeLimit(.minutes(1)))
struct DeviceEventTests {
    static let template = "{{ value_json | tojson if value_json is mapping and value_json['property'] is defined"

    static let shapes: [ShapeCase] = [
        ShapeCase(
            path: ["button"], component: "event",
            keys: [
                "state_topic": "t2m/remote/event",
                "value_template": .string(template + " and value_json['property'] == 'button' else '' }}"),
                "event_types": .array(Fixtures.buttonTypes.map(JSONValue.string)), "device_class": "button",
            ]),
        ShapeCase(
            path: ["dimmer"], component: "event",
            keys: [
                "state_topic": "t2m/remote/event",
                "value_template": .string(template + " and value_json['property'] == 'dimmer' else '' }}"),
                "event_types": ["rotate_left", "rotate_right"],
            ]),
        ShapeCase(
            path: ["buttons", "up"], component: "event",
            keys: [
                "state_topic": "t2m/remote/event",
                "value_template": .string(template + " and value_json['property'] == 'buttons.up' else '' }}"),
                "event_types": ["press", "long_press"], "device_class": "button",
            ]),
        ShapeCase(
            path: ["buttons", "presses"], component: "sensor",
            keys: [
                "state_topic": "t2m/remote",
                "value_template":
                    "{{ value_json['buttons']['presses'] if value_json['buttons'] is defined and value_json['buttons']['presses'] is defined else 'None' }}",
                "state_class": "total_increasing",
            ]),
    ]

    @Test("an event expose becomes an event entity on the device's event topic, in both payload modes", arguments: shapes)
    func shape(_ testCase: ShapeCase) throws {
        let leaf = try #require(Fixtures.remote().leaves.first { $0.path == testCase.path })
        for legacy in [false, true] {
            let (component, keys) = try #require(
                EntityShapes(topics: Topics(base: "t2m"), legacy: legacy).entity(for: leaf, alias: "remote"))
            #expect(component == testCase.component)
            #expect(keys == testCase.keys)
        }
    }

    static let relevance: [RelevanceCase] = [
        RelevanceCase(topic: "t2m/remote/event", relevant: false),
        RelevanceCase(topic: "t2m/hall/remote/event", relevant: false),
        RelevanceCase(topic: "t2m/remote/event", retained: true, relevant: false),
        RelevanceCase(topic: "t2m/remote/set/event", relevant: true),
        RelevanceCase(topic: "t2m/remote/set", relevant: true),
        RelevanceCase(topic: "t2m/remote/set", retained: true, relevant: false),
        RelevanceCase(topic: "t2m/hall/remote/get", relevant: true),
        RelevanceCase(topic: "t2m/remote", relevant: false),
        RelevanceCase(topic: "t2m/remote/availability", relevant: false),
        RelevanceCase(topic: "t2m/bridge/event", relevant: false),
        RelevanceCase(topic: "t2m/bridge/state", relevant: false),
        RelevanceCase(topic: "t2m/bridge/response/device/rename", relevant: false),
        RelevanceCase(topic: "t2m/bridge/request/event", relevant: true),
        RelevanceCase(topic: "t2m/bridge/request/device/rename", relevant: true),
        RelevanceCase(topic: "homeassistant/status", relevant: true),
        RelevanceCase(topic: "homeassistant/status", retained: true, relevant: true),
        RelevanceCase(topic: "other/remote/event", relevant: false),
        RelevanceCase(topic: "t2m/remote/events", relevant: false),
    ]

    @Test("the bridge's own state, availability and occurrences echoed back by the broker never take a place in the inbox", arguments: relevance)
    func inbox(_ testCase: RelevanceCase) throws {
        let config = try ConfigLoader.parse(yaml: TestConfig.yaml(port: 1883), file: "test.yaml")
        let message = InboundMessage(topic: testCase.topic, payload: Array(#"{"event_type":"press"}"#.utf8), retained: testCase.retained)
        #expect(InboxFilter(config: config).isRelevant(message) == testCase.relevant)
    }

    static let remoteConfig = TestConfig.yaml(
        port: 1883, extra: "devices:\n  ble_a4c138112233:\n    alias: hall/remote\n    qos: 0\n")

    @Test("each occurrence is published once, not retained, at the device's QoS, in order with state, and never into the state")
    func published() async throws {
        let bridge = try MemoryBridge(yaml: Self.remoteConfig, integrations: [.ble])
        let driver = bridge.driver(.ble)
        let id = Fixtures.remote().id
        driver.announce(Fixtures.remote(), state: ["battery": 90])
        driver.emit(.event(id, ExposeEvent("button", type: "press")))
        driver.emit(.event(id, ExposeEvent("button", type: "press")))
        driver.emit(.state(id, ["battery": 80]))
        driver.emit(.event(id, ExposeEvent(path: ["buttons", "up"], type: "long_press", data: ["duration": 1.5])))
        try await bridge.run()
        _ = try await bridge.request("health_check")

        let device = bridge.transport.published.filter { $0.topic.hasPrefix("t2m/hall/remote") && $0.topic != "t2m/hall/remote/availability" }
        // The status's state, the first battery value, two presses, the second value, the long press.
        let state = "t2m/hall/remote", event = "t2m/hall/remote/event"
        #expect(device.map(\.topic) == [state, state, event, event, state, event])
        let events = device.filter { $0.topic == "t2m/hall/remote/event" }
        #expect(events.allSatisfy { !$0.retain && $0.qos == 0 })
        #expect(events.map(\.json) == [
            ["event_type": "press", "property": "button", "action": "button_press"],
            ["event_type": "press", "property": "button", "action": "button_press"],
            ["event_type": "long_press", "property": "buttons.up", "action": "buttons_up_long_press", "duration": 1.5],
        ])
        #expect(bridge.transport.retained("t2m/hall/remote/event") == nil)
        #expect(JSONValue.parse(bridge.transport.retained("t2m/hall/remote") ?? []) == ["battery": 80, "status": "ready"])
        await bridge.stop()
    }

    @Test("an occurrence the device does not declare, or of an unknown device, is refused with a warning and not published")
    func refused() async throws {
        let bridge = try await MemoryBridge.start(yaml: Self.remoteConfig, integrations: [.ble])
        let driver = bridge.driver(.ble)
        let id = Fixtures.remote().id
        driver.announce(Fixtures.remote())
        driver.emit(.event(id, ExposeEvent("button", type: "hold")))
        driver.emit(.event(id, ExposeEvent("battery", type: "press")))
        driver.emit(.event(DeviceID("ble_a4c138999999")!, ExposeEvent("button", type: "press")))
        driver.emit(.event(id, ExposeEvent("dimmer", type: "rotate_right", data: ["steps": 2])))
        let accepted = try await bridge.waitForPublish("t2m/hall/remote/event")
        #expect(accepted.json?["event_type"] == "rotate_right")
        #expect(bridge.transport.published.filter { $0.topic.hasSuffix("/event") && $0.topic != "t2m/bridge/event" }.count == 1)
        let warnings = bridge.logs.all.filter { $0.hasPrefix("WARNING") && $0.contains("Device event refused") }
        #expect(warnings.count == 2)
        #expect(warnings.first?.contains(#"button has no event type "hold""#) == true)
        #expect(bridge.logs.all.contains { $0.contains("Event for an unknown device ignored") })
        await bridge.stop()
    }
}
