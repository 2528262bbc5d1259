import LIFXModels
import BridgeCore
import Testing
import TestSupport

@Suite("Start-up cleanup of stale discovery configs", .tags(.integration), .timeLimit(.minutes(1)), .needs(.broker))
struct StaleDiscoveryTests {
    static let ours: JSONValue = ["topic": "t2m/bridge/state"]

    @Test("configs of this bridge that are no longer generated are cleared; others stay")
    func cleanup() async throws {
        let broker = try await Broker.start()
        let seeder = try await TestClient.connect(to: broker)
        let staleDevice = "homeassistant/sensor/t2m_lifx_d073d5000009/temperature/config"
        let staleEntity = "homeassistant/sensor/t2m_lifx_d073d5000001/old_entity/config"
        let staleBridge = "homeassistant/switch/things2mqtt_bridge_t2m/permit_join/config"
        let foreign = "homeassistant/sensor/lifx_d073d5000009/humidity/config"
        let unrelated = "homeassistant/sensor/weather/outside/config"
        let current = "homeassistant/light/t2m_lifx_d073d5000001/light/config"
        let seeds: [String: JSONValue] = [
            staleDevice: ["name": "Temperature", "state_topic": "t2m/gone", "availability": [Self.ours]],
            staleEntity: ["name": "Old", "state_topic": "t2m/kitchen", "avty": [["t": "t2m/bridge/state"]]],
            staleBridge: ["name": "Permit join", "state_topic": "t2m/bridge/state"],
            foreign: ["name": "Humidity", "state_topic": "other/gone", "availability": [["topic": "other/bridge/state"]]],
            unrelated: ["name": "Outside", "state_topic": "weather/outside"],
            current: ["name": "Old light config", "availability": [Self.ours]],
        ]
        for (topic, payload) in seeds { seeder.publish(topic, json: payload, retain: true) }
        try await seeder.sync()
        #expect(try await broker.retainedMessages(under: "homeassistant/#").count == seeds.count)

        let bridge = try await InProcessBridge.start(broker: broker)
        let driver = bridge.driver()
        driver.announce(Fixtures.colorLight(), state: ["state": "ON"])

        // When the window closes, configs that belong to no device are cleared at once ...
        try await broker.waitForNoRetained(staleBridge)
        // ... while device configs wait until their integration has listed all its devices.
        #expect(try await broker.retained(staleDevice) != nil)
        #expect(try await broker.retained(staleEntity) != nil)
        driver.emit(.inventoryComplete(.lifx))
        try await broker.waitForNoRetained(staleDevice)
        try await broker.waitForNoRetained(staleEntity)

        let remaining = try await broker.retainedMessages(under: "homeassistant/#")
        #expect(remaining[foreign]?.json == seeds[foreign])
        #expect(remaining[unrelated]?.json == seeds[unrelated])
        #expect(remaining[current]?.json?["unique_id"] == "lifx_d073d5000001_light_t2m")
        #expect(remaining["homeassistant/sensor/t2m_lifx_d073d5000001/signal/config"] != nil)
        #expect(remaining["homeassistant/binary_sensor/things2mqtt_bridge_t2m/connection_state/config"] != nil)
        #expect(remaining["homeassistant/sensor/things2mqtt_bridge_t2m/lifx_status/config"] != nil)
        #expect(remaining.count == 6, "\(remaining.keys.sorted())")
        await bridge.stop()
        await seeder.close()
    }

    @Test("a bridge with another base topic leaves this bridge's configs alone")
    func otherBase() async throws {
        let broker = try await Broker.start()
        let first = try await InProcessBridge.start(broker: broker)
        first.driver().announce(Fixtures.colorLight(), state: ["state": "ON"])
        let firstTopic = "homeassistant/light/t2m_lifx_d073d5000001/light/config"
        try await broker.waitForRetained(firstTopic)
        await first.stop()

        // A stale config of the second bridge: once it is gone, the second bridge has run its cleanup.
        let seeder = try await TestClient.connect(to: broker)
        let staleOfSecond = "homeassistant/switch/things2mqtt_bridge_other/permit_join/config"
        seeder.publish(staleOfSecond, json: ["state_topic": "other/bridge/state"], retain: true)
        try await seeder.sync()
        let second = try await InProcessBridge.start(broker: broker, yaml: TestConfig.yaml(port: broker.port, base: "other"))
        second.driver().emit(.inventoryComplete(.lifx))
        try await broker.waitForNoRetained(staleOfSecond)
        #expect(try await broker.retainedJSON(firstTopic)?["unique_id"] == "lifx_d073d5000001_light_t2m")
        #expect(try await broker.retained("homeassistant/binary_sensor/things2mqtt_bridge_t2m/connection_state/config") != nil)
        await second.stop()
        await seeder.close()
    }
}
