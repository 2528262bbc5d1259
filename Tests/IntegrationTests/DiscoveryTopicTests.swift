import LIFXModels
import Bridge
import BridgeCore
import Testing
import TestSupport

@Suite("Discovery topics per bridge, and moving configs from the old layout", .tags(.integration), .timeLimit(.minutes(1)), .needs(.broker))
struct DiscoveryTopicTests {
    static func availability(_ base: String, _ alias: String) -> JSONValue {
        [["topic": .string("\(base)/bridge/state")], ["topic": .string("\(base)/\(alias)/availability")]]
    }

    /// A config as an earlier release wrote it: the same `unique_id`, at the bare device id.
    static func oldConfig(_ object: String, base: String = "t2m", id: String = "lifx_d073d5000001") -> JSONValue {
        ["name": .null, "unique_id": .string("\(id)_\(object)_\(base)"), "availability": availability(base, id)]
    }

    @Test("two bridges seeing one device publish to their own topics and never clear each other's")
    func twoBridges() async throws {
        let broker = try await Broker.start()
        let watcher = try await TestClient.connect(to: broker)
        try await watcher.subscribe("homeassistant/#")
        let lamp = Fixtures.colorLight(label: "Floor Lamp")
        let topics = [
            "t2m": ["homeassistant/light/t2m_lifx_d073d5000001/light/config", "homeassistant/sensor/t2m_lifx_d073d5000001/signal/config"],
            "other": ["homeassistant/light/other_lifx_d073d5000001/light/config", "homeassistant/sensor/other_lifx_d073d5000001/signal/config"],
        ]
        let seeder = try await TestClient.connect(to: broker)
        // Stale configs of each bridge: once one is gone, that bridge has run its start-up cleanup.
        let staleOfFirst = "homeassistant/sensor/t2m_lifx_d073d5000009/temperature/config"
        let staleOfSecond = "homeassistant/sensor/other_lifx_d073d5000009/temperature/config"

        let first = try await InProcessBridge.start(broker: broker)
        first.driver().announce(lamp, state: ["state": "ON"])
        for topic in topics["t2m"]! { try await broker.waitForRetained(topic) }

        seeder.publish(staleOfSecond, json: ["availability": Self.availability("other", "gone")], retain: true)
        try await seeder.sync()
        let second = try await InProcessBridge.start(broker: broker, yaml: TestConfig.yaml(port: broker.port, base: "other"))
        second.driver().announce(lamp, state: ["state": "ON"])
        second.driver().emit(.inventoryComplete(.lifx))
        try await broker.waitForNoRetained(staleOfSecond)
        for topic in topics["other"]! { try await broker.waitForRetained(topic) }

        // The first bridge starts again while the second's configs are on the broker.
        await first.stop()
        seeder.publish(staleOfFirst, json: ["availability": Self.availability("t2m", "gone")], retain: true)
        try await seeder.sync()
        let again = try await InProcessBridge.start(broker: broker)
        again.driver().announce(lamp, state: ["state": "ON"])
        again.driver().emit(.inventoryComplete(.lifx))
        try await broker.waitForNoRetained(staleOfFirst)

        for (base, configs) in topics {
            let light = try #require(try await broker.retainedJSON(configs[0]), "\(configs[0])")
            #expect(light["unique_id"] == .string("lifx_d073d5000001_light_\(base)"))
            #expect(light["state_topic"] == .string("\(base)/lifx_d073d5000001"))
            #expect(light["device"]?["name"] == "Floor Lamp")
            #expect(try await broker.retainedJSON(configs[1])?["unique_id"] == .string("lifx_d073d5000001_signal_\(base)"))
        }
        let cleared = watcher.messages(on: "homeassistant/+/+/+/config").filter {
            $0.payload.isEmpty && topics.values.joined().contains($0.topic)
        }
        #expect(cleared.isEmpty, "\(cleared)")
        await again.stop()
        await second.stop()
        await seeder.close()
        await watcher.close()
    }

    @Test("while Home Assistant removes the old entity, the device's new config is held back; others are not")
    func heldWhileMoving() async throws {
        let broker = try await Broker.start()
        let seeder = try await TestClient.connect(to: broker)
        let oldLight = "homeassistant/light/lifx_d073d5000001/light/config"
        seeder.publish(oldLight, json: Self.oldConfig("light"), retain: true)
        try await seeder.sync()
        var options = BridgeOptions.fastForTests()
        options.rediscoverDelay = .seconds(3600)
        let bridge = try await InProcessBridge.start(broker: broker, options: options)
        bridge.driver().announce(Fixtures.colorLight(label: "Floor Lamp"), state: ["state": "ON"])
        bridge.driver().announce(Fixtures.colorLight("lifx_d073d5000002", label: "Desk"), state: ["state": "ON"])
        try await broker.waitForNoRetained(oldLight)
        // The bridge handles its inputs in order: once both devices are listed, both were discovered.
        try await broker.waitForRetained("t2m/bridge/devices") { $0.json?.arrayCount == 2 }
        #expect(try await broker.retained("homeassistant/light/t2m_lifx_d073d5000001/light/config") == nil)
        #expect(try await broker.retained("homeassistant/sensor/t2m_lifx_d073d5000001/signal/config") == nil)
        #expect(try await broker.retained("homeassistant/light/t2m_lifx_d073d5000002/light/config") != nil)
        #expect(try await broker.retainedJSON("t2m/lifx_d073d5000001") == ["state": "ON", "status": "ready"])
        await bridge.stop()
        await seeder.close()
    }

    @Test("an old-layout config of this bridge is cleared, then re-created at its new topic; another bridge's stays")
    func migration() async throws {
        let broker = try await Broker.start()
        let seeder = try await TestClient.connect(to: broker)
        let oldLight = "homeassistant/light/lifx_d073d5000001/light/config"
        let oldSignal = "homeassistant/sensor/lifx_d073d5000001/signal/config"
        let oldGone = "homeassistant/sensor/lifx_d073d5000009/signal/config"
        let foreign = "homeassistant/light/lifx_d073d5000002/light/config"
        let stale = "homeassistant/sensor/t2m_lifx_d073d5000009/temperature/config"
        let seeds: [String: JSONValue] = [
            stale: Self.oldConfig("temperature", id: "lifx_d073d5000009"),
            oldLight: Self.oldConfig("light"),
            oldSignal: Self.oldConfig("signal"),
            oldGone: Self.oldConfig("signal", id: "lifx_d073d5000009"),
            foreign: Self.oldConfig("light", base: "other", id: "lifx_d073d5000002"),
        ]
        for (topic, payload) in seeds { seeder.publish(topic, json: payload, retain: true) }
        try await seeder.sync()
        let watcher = try await TestClient.connect(to: broker)
        try await watcher.subscribe("homeassistant/#")

        let bridge = try await InProcessBridge.start(broker: broker)
        bridge.driver().announce(Fixtures.colorLight(label: "Floor Lamp"), state: ["state": "ON"])
        let moves = [
            (oldLight, "homeassistant/light/t2m_lifx_d073d5000001/light/config"),
            (oldSignal, "homeassistant/sensor/t2m_lifx_d073d5000001/signal/config"),
        ]
        for (old, new) in moves {
            try await broker.waitForNoRetained(old)
            let clear = try await watcher.waitForMessage(topic: old) { !$0.retained && $0.payload.isEmpty }
            // Home Assistant ignores a config whose unique_id an entity still holds: the new config has to come
            // after the old one is cleared, and one that was there before has to be cleared and sent again.
            let created = try await watcher.waitForMessage(topic: new, after: clear.index) { !$0.payload.isEmpty }
            let before = watcher.messages(on: new).filter { $0.index < clear.index }
            if let live = before.last, !live.payload.isEmpty {
                let next = watcher.messages(on: new).first { $0.index > clear.index }
                #expect(next?.payload.isEmpty == true, "\(new) was not cleared after \(old)")
            }
            #expect(created.json?["unique_id"] == seeds[old]?["unique_id"])
            #expect(try await broker.retainedJSON(new) == created.json)
        }
        // The device that is gone is cleared too, without waiting for the inventory.
        try await broker.waitForNoRetained(oldGone)

        // Once this stale config of ours is gone, the start-up cleanup has run.
        bridge.driver().emit(.inventoryComplete(.lifx))
        try await broker.waitForNoRetained(stale)
        let remaining = try await broker.retainedMessages(under: "homeassistant/#")
        #expect(remaining[foreign]?.json == seeds[foreign])
        #expect(watcher.messages(on: foreign).allSatisfy { !$0.payload.isEmpty })
        #expect(
            Set(remaining.keys) == [
                foreign, moves[0].1, moves[1].1,
                "homeassistant/binary_sensor/things2mqtt_bridge_t2m/connection_state/config",
                "homeassistant/sensor/things2mqtt_bridge_t2m/lifx_status/config",
            ])
        await bridge.stop()
        await seeder.close()
        await watcher.close()
    }
}
