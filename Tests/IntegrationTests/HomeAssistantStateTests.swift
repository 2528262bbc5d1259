import BridgeCore
import Foundation
import Testing
import TestSupport

/// The demo's devices, driven for a while, and every state message they publish delivered to Home Assistant's
/// own entity for each discovered config: the legacy payloads through 2024.1, the default ones through 2025.4.
/// Nothing may be rejected and Home Assistant may log nothing.
@Suite("Every state the demo's devices publish passes Home Assistant's own entities", .tags(.integration, .process), .timeLimit(.minutes(5)), .needs(.broker, .busMock, .homeAssistant))
struct HomeAssistantStateTests {
    @Test("legacy payloads and their real states through Home Assistant 2024.1")
    func legacy() async throws { try await check(legacy: true, with: .legacy) }

    @Test("default payloads and their real states through Home Assistant 2025.4")
    func current() async throws { try await check(legacy: false, with: .current) }

    /// Commands for each family's lights, motors and sensors, so their states change as a user's would.
    static let commands: [(String, String)] = [
        ("things2mqtt/living_room/floor_lamp/set", #"{"state":"ON","brightness":200,"color":{"h":120,"s":80}}"#),
        ("things2mqtt/living_room/ceiling/set", #"{"color_temp":2700}"#),
        ("things2mqtt/bedroom/set", "OFF"),
        ("things2mqtt/ble_aabbccddee01/set", #"{"state":"ON","color_temp":3000}"#),
        ("things2mqtt/robot/set", #"{"motor_a":{"speed":40},"port_2_mode":"ambient","led":"orange_flash"}"#),
    ]

    private func check(legacy: Bool, with release: HomeAssistantChecker.Release) async throws {
        let rig = try await DemoRig.start(homeAssistantLegacy: legacy)
        let client = try await TestClient.connect(to: rig.broker)
        try await client.subscribe("things2mqtt/#")
        // The brick is found by its beacon and the flash connects by policy: both are there before they are driven.
        for alias in ["robot", "ble_aabbccddee01", "living_room/floor_lamp"] {
            try await rig.broker.waitForRetained("things2mqtt/\(alias)/availability", timeout: .seconds(30)) { $0.json?["state"] == "online" }
        }
        for (topic, payload) in Self.commands { client.publish(topic, payload) }
        try await rig.broker.waitForRetained("things2mqtt/ble_aabbccddee01", timeout: .seconds(30)) { $0.json?["state"] == "ON" }
        try await rig.broker.waitForRetained("things2mqtt/robot", timeout: .seconds(30)) { $0.json?["motor_a"]?["speed"] == 40 }
        // Adverts, notifications, polls and a button press or two come in meanwhile.
        try await Task.sleep(for: .seconds(8))
        client.publish("things2mqtt/living_room/floor_lamp/set", "OFF")
        client.publish("things2mqtt/robot/set", #"{"stop":true}"#)
        try await Task.sleep(for: .seconds(2))

        let configs = try await rig.broker.retainedMessages(under: "homeassistant/#")
        let kinds = Set(configs.keys.map { $0.split(separator: "/")[1] })
        #expect(kinds.isSuperset(of: ["light", "sensor", "binary_sensor", "number", "select", "text", "event"]), "\(kinds)")
        var items: [JSONValue] = []
        var delivered = 0
        for topic in configs.keys.sorted() {
            guard let payload = configs[topic]?.json, let stateTopic = payload["state_topic"]?.stringValue else { continue }
            let seen = Self.distinct(client.messages(on: stateTopic).compactMap(\.json))
            delivered += seen.count
            if topic.split(separator: "/")[1] == "event" {
                let property = String(topic.split(separator: "/").dropLast().last ?? "")
                let samples = seen.map { message in
                    HomeAssistantChecker.EventSample(message, fires: message["property"] == .string(property) ? message["event_type"]?.stringValue : nil)
                }
                items.append(HomeAssistantChecker.item(topic: topic, payload: payload, events: samples))
            } else {
                items.append(HomeAssistantChecker.item(topic: topic, payload: payload, states: seen.map { ($0, nil) }))
            }
        }
        #expect(delivered > configs.count, "only \(delivered) state messages for \(configs.count) configs")
        let report = try await HomeAssistantChecker.check(items, with: release)
        #expect(report.status == 0, "validate.py exited with \(report.status):\n\(report.rejected.joined(separator: "\n"))")
        #expect(report.logged.isEmpty, "Home Assistant logged: \(report.logged)")
        await client.close()
        withExtendedLifetime(rig) {}
    }

    /// Each different message once, in the order they came, at most 40 (the values repeat as they drift).
    static func distinct(_ messages: [JSONValue]) -> [JSONValue] {
        var seen: [JSONValue] = []
        for message in messages where !seen.contains(message) && seen.count < 40 { seen.append(message) }
        return seen
    }
}
