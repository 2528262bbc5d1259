import BLEModels
import BridgeCore
import Foundation
import Testing
import TestSupport

/// Occurrences of event exposes (button presses, dimmer turns) through the bridge, a real mosquitto and a real
/// Home Assistant's MQTT event entity.
@Suite("Device events through a broker and Home Assistant", .tags(.integration), .timeLimit(.minutes(5)))
struct DeviceEventTests {
    static let node = "t2m_ble_a4c138112233"
    static let topic = "t2m/hall/remote/event"
    static let extra = "devices:\n  ble_a4c138112233:\n    alias: hall/remote\n"

    /// One occurrence of each event leaf of `Fixtures.remote()`, some with data.
    static let occurrences: [ExposeEvent] = [
        ExposeEvent("button", type: "double_press"),
        ExposeEvent("dimmer", type: "rotate_left", data: ["steps": 2]),
        ExposeEvent(path: ["buttons", "up"], type: "press"),
        ExposeEvent(path: ["buttons", "down"], type: "long_press", data: ["duration": 1.5, "source": ["hand": "left"]]),
    ]

    @Test("an occurrence arrives once and not retained, stays out of the state, and is not replayed to a later subscriber", .needs(.broker))
    func once() async throws {
        let broker = try await Broker.start()
        let bridge = try await InProcessBridge.start(
            broker: broker, yaml: TestConfig.yaml(port: broker.port, extra: Self.extra), integrations: [.ble])
        let driver = bridge.driver(.ble)
        let id = Fixtures.remote().id
        driver.announce(Fixtures.remote(), state: Fixtures.remoteState)
        try await broker.waitForRetained("t2m/hall/remote") { $0.json?["battery"] == 90 }
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("t2m/hall/remote/#")
        try await client.subscribe("t2m/hall/remote")
        let mark = client.mark

        driver.emit(.event(id, ExposeEvent("button", type: "double_press")))
        let first = try await client.waitForMessage(topic: Self.topic, after: mark)
        #expect(!first.retained)
        #expect(first.json == ["event_type": "double_press", "property": "button", "action": "button_double_press"])
        driver.emit(.event(id, ExposeEvent("dimmer", type: "rotate_left", data: ["steps": 2])))
        let second = try await client.waitForMessage(topic: Self.topic, after: first.index + 1)
        #expect(second.json == ["event_type": "rotate_left", "property": "dimmer", "action": "dimmer_rotate_left", "steps": 2])
        // Whatever the bridge published before the second occurrence has arrived by now, in order.
        #expect(client.messages(on: Self.topic).map(\.index) == [first.index, second.index])
        #expect(client.messages(on: "t2m/hall/remote").allSatisfy { $0.index < mark })

        #expect(try await broker.retainedMessages(under: Self.topic).isEmpty)
        #expect(try await broker.retainedJSON("t2m/hall/remote") == ["buttons": ["presses": 12], "battery": 90, "status": "ready"])
        let late = try await TestClient.connect(to: broker)
        try await late.subscribe(Self.topic)
        #expect(late.messages.isEmpty)
        await late.close()
        await client.close()
        await bridge.stop()
    }

    @Test("each event leaf becomes an event entity that Home Assistant 2024.1 (legacy) and 2025.4 accept and fire", .needs(.broker, .homeAssistant), arguments: [true, false])
    func homeAssistant(legacy: Bool) async throws {
        let broker = try await Broker.start()
        let bridge = try await InProcessBridge.start(
            broker: broker, yaml: TestConfig.yaml(port: broker.port, legacy: legacy, extra: Self.extra), integrations: [.ble])
        let driver = bridge.driver(.ble)
        driver.announce(Fixtures.remote(), state: Fixtures.remoteState)
        try await broker.waitForRetained("t2m/bridge/devices") { $0.json?.arrayCount == 1 }
        let configs = try await broker.retainedMessages(under: "homeassistant/+/\(Self.node)/+/config")
        #expect(configs.count == Fixtures.remote().leaves.count)
        let button = try #require(configs["homeassistant/event/\(Self.node)/button/config"]?.json)
        #expect(button["state_topic"] == .string(Self.topic))
        #expect(button["event_types"] == .array(Fixtures.buttonTypes.map(JSONValue.string)))
        #expect(button["device_class"] == "button")
        #expect(button["name"] == "Button")
        #expect(button["unique_id"] == "ble_a4c138112233_button_t2m")
        #expect(button["default_entity_id"] == "event.hall_remote_button")
        #expect(configs["homeassistant/event/\(Self.node)/buttons_down/config"]?.json?["name"] == "Button Down")
        #expect(configs["homeassistant/event/\(Self.node)/dimmer/config"]?.json?["device_class"] == nil)

        // What the entities get is what the bridge really published.
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe(Self.topic)
        for occurrence in Self.occurrences { driver.emit(.event(Fixtures.remote().id, occurrence)) }
        try await waitUntil("all occurrences on \(Self.topic)") { client.messages(on: Self.topic).count == Self.occurrences.count }
        let published = client.messages(on: Self.topic).compactMap(\.json)
        #expect(published.count == Self.occurrences.count)

        var items: [JSONValue] = []
        for leaf in Fixtures.remote().leaves {
            let topic = try #require(configs.keys.first { $0.hasSuffix("/\(leaf.objectID)/config") }, "\(leaf.objectID)")
            let payload = try #require(configs[topic]?.json)
            guard leaf.expose.kind == .event else {
                let state = try #require(try await broker.retainedJSON("t2m/hall/remote"))
                items.append(HomeAssistantChecker.item(topic: topic, payload: payload, states: [(state, nil), ([:], "None")]))
                continue
            }
            // Its own occurrence fires it, with the rest of the message as attributes; every other one, a message
            // that is not an object and one without a property fire nothing.
            var samples = published.map { message -> HomeAssistantChecker.EventSample in
                guard message["property"]?.stringValue == leaf.dottedPath, case .object(var attributes) = message else {
                    return .init(message, fires: nil)
                }
                let type = attributes.removeValue(forKey: "event_type")?.stringValue
                return .init(message, fires: type, attributes: attributes)
            }
            samples += [.init("press", fires: nil), .init(["event_type": "press"], fires: nil), .init([1, 2], fires: nil)]
            #expect(samples.filter { $0.expect != nil }.count == 1, "\(leaf.dottedPath)")
            items.append(HomeAssistantChecker.item(topic: topic, payload: payload, events: samples))
        }
        let report = try await HomeAssistantChecker.check(items, with: legacy ? .legacy : .current)
        #expect(report.status == 0, "\(report.rejected.joined(separator: "\n"))")
        #expect(report.accepted.sorted() == configs.keys.sorted())
        #expect(report.logged.isEmpty, "Home Assistant logged: \(report.logged)")
        await client.close()
        await bridge.stop()
    }
}
