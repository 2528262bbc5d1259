import BridgeCore
import Foundation
import Testing
import TestSupport

@Suite("things2mqtt process: will, shutdown, broker restart, reload", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker))
struct BridgeProcessTests {
    static let online: JSONValue = ["state": "online"]
    static let offline: JSONValue = ["state": "offline"]

    @Test("kill -9: the broker publishes the retained offline will")
    func lastWill() async throws {
        let broker = try await Broker.start()
        let bridge = try BridgeProcess.start(config: TestConfig.yaml(port: broker.port, keepalive: "5s"))
        try await bridge.waitUntilReady(on: broker)
        let state = try await broker.waitForRetained("t2m/bridge/state", equals: Self.online)
        #expect(state.json == Self.online)
        try await bridge.kill9()
        #expect(bridge.child.status == 128 + SIGKILL)
        let will = try await broker.waitForRetained("t2m/bridge/state", equals: Self.offline)
        #expect(will.json == Self.offline)
    }

    @Test("SIGTERM: exit status 0 and retained offline")
    func gracefulStop() async throws {
        let broker = try await Broker.start()
        let bridge = try BridgeProcess.start(config: TestConfig.yaml(port: broker.port))
        try await bridge.waitUntilReady(on: broker)
        try await broker.waitForRetained("t2m/bridge/state", equals: Self.online)
        let watcher = try await TestClient.connect(to: broker)
        try await watcher.subscribe("t2m/bridge/state")
        let mark = watcher.mark
        let status = try await bridge.terminate()
        #expect(status == 0, "stderr:\n\(bridge.stderr)")
        // Published by the bridge itself before disconnecting, not by the broker as a will.
        let live = try await watcher.waitForMessage(topic: "t2m/bridge/state", after: mark)
        #expect(live.json == Self.offline)
        #expect(try await broker.retainedJSON("t2m/bridge/state") == Self.offline)
        await watcher.close()
    }

    @Test("broker restart without persistence: the bridge reconnects and restores its retained topics")
    func brokerRestart() async throws {
        let broker = try await Broker.start(persistence: false)
        let bridge = try BridgeProcess.start(config: TestConfig.yaml(port: broker.port))
        try await bridge.waitUntilReady(on: broker)
        let restored = [
            "t2m/bridge/state", "t2m/bridge/info", "t2m/bridge/devices",
            "homeassistant/binary_sensor/things2mqtt_bridge_t2m/connection_state/config",
        ]
        var before: [String: JSONValue] = [:]
        for topic in restored { before[topic] = try await broker.waitForRetained(topic).json }
        #expect(before["t2m/bridge/state"] == Self.online)

        try await broker.stop()
        try await broker.restart()
        // A restarted broker without persistence starts empty; everything below was re-published by the bridge.
        for topic in restored {
            let message = try await broker.waitForRetained(topic, timeout: .seconds(30))
            #expect(message.json == before[topic], "\(topic)")
        }
        let client = try await TestClient.connect(to: broker)
        try await client.expectHealthy()
        #expect(bridge.isRunning)
        #expect(try await bridge.terminate() == 0)
        await client.close()
    }

    @Test("SIGHUP reloads the config: log_level applied, a broken file or an alias bomb keeps the running config")
    func reload() async throws {
        let broker = try await Broker.start()
        let bridge = try BridgeProcess.start(config: TestConfig.yaml(port: broker.port, logLevel: "info"))
        try await bridge.waitUntilReady(on: broker)
        let client = try await TestClient.connect(to: broker)
        var mark = try await client.watchEvents()

        try bridge.rewriteConfig(TestConfig.yaml(port: broker.port, logLevel: "debug"))
        bridge.sendHUP()
        let applied = try await client.waitForEvent("config_reloaded", after: mark)
        #expect(applied["applied"] == ["log_level"])
        try await broker.waitForRetained("t2m/bridge/info") { $0.json?["log_level"] == "debug" }

        mark = client.mark
        try bridge.rewriteConfig("mqtt:\n  qos: high\n")
        bridge.sendHUP()
        let failed = try await client.waitForEvent("config_reload_failed", after: mark)
        #expect(failed["errors"]?.stringValue?.contains("mqtt.qos") == true)
        try await client.expectHealthy()

        // A "billion laughs" reached through SIGHUP is refused like any other bad config; the daemon lives on.
        mark = client.mark
        var bomb = [#"a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]"#]
        for (previous, name) in zip("abcdefgh", "bcdefghi") {
            bomb.append("\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]")
        }
        try bridge.rewriteConfig(bomb.joined(separator: "\n") + "\n")
        bridge.sendHUP()
        let refused = try await client.waitForEvent("config_reload_failed", after: mark)
        #expect(refused["errors"]?.stringValue?.contains(":5:8: YAML aliases expand to more than 10000 nodes") == true, "\(refused)")
        try await client.expectHealthy()
        #expect(try await bridge.terminate() == 0)
        await client.close()
    }

    @Test("secrets from password_file never reach the log or bridge/info")
    func secretsStayHidden() async throws {
        let secret = "pw-\(UUID().uuidString)"
        let broker = try await Broker.start()
        let config = TestConfig.yaml(
            port: broker.port, logLevel: "trace", mqttLines: ["username: bridge", "password_file: mqtt.pw"])
        let bridge = try BridgeProcess.start(config: config, files: ["mqtt.pw": secret + "\n"])
        try await bridge.waitUntilReady(on: broker)
        let info = try #require(try await broker.retained("t2m/bridge/info"))
        #expect(info.json?["config"]?["mqtt"]?["password"] == "***")
        #expect(info.json?["config"]?["mqtt"]?["username"] == "bridge")
        #expect(!info.text.contains(secret))
        let client = try await TestClient.connect(to: broker)
        try await client.expectHealthy()
        _ = try await client.request("options", #"{"options":{"log_level":"trace"}}"#)
        #expect(try await bridge.terminate() == 0)
        #expect(!bridge.stderr.isEmpty)
        #expect(!bridge.stderr.contains(secret))
        await client.close()
    }

    @Test("started before the broker, the bridge connects once the broker is up")
    func coldStart() async throws {
        let broker = try await Broker.start()
        try await broker.stop()
        let bridge = try BridgeProcess.start(config: TestConfig.yaml(port: broker.port))
        try await broker.restart()
        try await bridge.waitUntilReady(on: broker, timeout: .seconds(40))
        try await broker.waitForRetained("t2m/bridge/state", equals: Self.online)
        #expect(try await bridge.terminate() == 0)
    }

    @Test("SIGTERM while the broker is down still exits with status 0")
    func stopWithoutBroker() async throws {
        let broker = try await Broker.start()
        let bridge = try BridgeProcess.start(config: TestConfig.yaml(port: broker.port))
        try await bridge.waitUntilReady(on: broker)
        try await broker.kill()
        #expect(try await bridge.terminate() == 0, "stderr:\n\(bridge.stderr)")
    }
}
