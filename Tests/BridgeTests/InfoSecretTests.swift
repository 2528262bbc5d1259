import BridgeConfig
import BridgeCore
import Testing
import TestSupport

/// `bridge/info` shows the configuration, and never a password or token in it.
@Suite("Secrets in bridge/info", .timeLimit(.minutes(1)))
struct InfoSecretTests {
    @Test("the MQTT password and the LIFX token read *** in bridge/info, before and after a change of options, which it shows")
    func passwordAndToken() async throws {
        let yaml = TestConfig.yaml(
            port: 1883, mqttLines: ["username: bridge", "password: hunter2-mqtt"],
            extra: "lifx:\n  enabled: true\n  token: t0ken-lifx\n")
        let bridge = try await MemoryBridge.start(yaml: yaml)
        let first = try #require(bridge.transport.retained("t2m/bridge/info"))
        let info = try #require(JSONValue.parse(first))
        #expect(info["config"]?["mqtt"]?["password"] == "***")
        #expect(info["config"]?["mqtt"]?["username"] == "bridge")
        #expect(info["config"]?["lifx"]?["token"] == "***")
        let mark = bridge.transport.mark
        _ = try await bridge.request("options", ["options": ["log_level": "debug"]])
        let again = try await bridge.waitForPublish("t2m/bridge/info", after: mark)
        // The config shown is the one now in force, not the one the bridge started with.
        #expect(info["config"]?["log_level"] == "info")
        #expect(JSONValue.parse(again.payload)?["config"]?["log_level"] == "debug")
        for payload in [first, again.payload] {
            let text = String(decoding: payload, as: UTF8.self)
            #expect(!text.contains("hunter2") && !text.contains("t0ken"), "\(text)")
        }
    }

    @Test("the password is typed Secret: it encodes and prints as ***")
    func passwordIsASecret() {
        var config = Configuration()
        config.mqtt.password = "hunter2"
        #expect(config.redactedJSON["mqtt"]?["password"] == "***")
        #expect(!config.redactedJSON.jsonString.contains("hunter2"))
        #expect(!"\(config.mqtt)".contains("hunter2"))
    }
}
