import Bridge
import BridgeConfig
import BridgeCore
import Testing
import TestSupport

@Suite("Config reload and alias bookkeeping", .tags(.integration), .timeLimit(.minutes(1)))
struct ReloadTests {
    static let lightTopic = "homeassistant/light/t2m_lifx_d073d5000001/light/config"

    static func yaml(_ port: Int, _ device: String) -> String {
        TestConfig.yaml(port: port, extra: "devices:\n  lifx_d073d5000001:\n" + device)
    }

    func start() async throws -> InProcessBridge {
        let broker = try await Broker.start()
        let bridge = try await InProcessBridge.start(broker: broker, yaml: Self.yaml(broker.port, "    alias: kitchen\n"))
        bridge.driver().announce(Fixtures.colorLight(), state: ["state": "ON"])
        try await broker.waitForRetained("t2m/kitchen")
        try await broker.waitForRetained(Self.lightTopic)
        return bridge
    }

    @Test("a new alias in the reloaded config moves the device's topics", .needs(.broker))
    func aliasChange() async throws {
        let bridge = try await start()
        try bridge.reload(yaml: Self.yaml(bridge.broker.port, "    alias: pantry\n"))
        try await bridge.broker.waitForRetained("t2m/pantry", equals: ["state": "ON", "status": "ready"])
        try await bridge.broker.waitForNoRetained("t2m/kitchen")
        try await bridge.broker.waitForNoRetained("t2m/kitchen/availability")
        try await bridge.broker.waitForRetained(Self.lightTopic) { $0.json?["state_topic"] == "t2m/pantry" }
        await bridge.stop()
    }

    @Test("homeassistant: null in the reloaded config clears the device's discovery; removing it restores it", .needs(.broker))
    func discoveryToggle() async throws {
        let bridge = try await start()
        try bridge.reload(yaml: Self.yaml(bridge.broker.port, "    alias: kitchen\n    homeassistant: null\n"))
        try await bridge.broker.waitForNoRetained(Self.lightTopic)
        try bridge.reload(yaml: Self.yaml(bridge.broker.port, "    alias: kitchen\n    homeassistant:\n      icon: mdi:lamp\n"))
        try await bridge.broker.waitForRetained(Self.lightTopic) { $0.json?["icon"] == "mdi:lamp" }
        await bridge.stop()
    }

    @Test("retain: false in the reloaded config removes the retained state from the broker", .needs(.broker))
    func retainOff() async throws {
        let bridge = try await start()
        try bridge.reload(yaml: Self.yaml(bridge.broker.port, "    alias: kitchen\n    retain: false\n"))
        try await bridge.broker.waitForRetained("t2m/bridge/info") {
            $0.json?["config"]?["devices"]?["lifx_d073d5000001"]?["retain"] == false
        }
        try await bridge.broker.waitForNoRetained("t2m/kitchen", timeout: .seconds(3))
        await bridge.stop()
    }

    @Test("an alias file that gives one device another's id is not taken: each device keeps its own topics", .needs(.broker))
    func aliasEqualToAnotherID() async throws {
        let broker = try await Broker.start()
        let options = BridgeOptions.fastForTests(savedAliases: [DeviceID("lifx_d073d5000001")!: "lifx_d073d5000002"])
        let bridge = try await InProcessBridge.start(broker: broker, options: options)
        bridge.driver().announce(Fixtures.colorLight(), state: ["state": "ON"])
        try await broker.waitForRetained("t2m/bridge/devices") { $0.json?.arrayCount == 1 }
        bridge.driver().announce(Fixtures.colorLight("lifx_d073d5000002", label: "Other"), state: ["state": "OFF"])
        let inventory = try await broker.waitForRetained("t2m/bridge/devices") { $0.json?.arrayCount == 2 }
        guard case .array(let entries) = inventory.json else { return }
        let aliases = entries.compactMap { $0["alias"]?.stringValue }
        #expect(Set(aliases).count == 2, "both devices got the alias \(aliases)")
        #expect(Set(aliases) == ["lifx_d073d5000001", "lifx_d073d5000002"], "\(aliases)")
        #expect(try await broker.retainedJSON("t2m/lifx_d073d5000002")?["state"] == "OFF")
        await bridge.stop()
    }

    @Test("a configured alias shaped like another device's id is a config error")
    func aliasShapedLikeAnID() throws {
        #expect(throws: ConfigErrors.self) {
            try ConfigLoader.parse(yaml: Self.yaml(1883, "    alias: lifx_d073d5000002\n"), file: "t.yaml")
        }
    }
}
