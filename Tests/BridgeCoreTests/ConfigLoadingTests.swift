import TestSupport
import LIFXDriver
import BridgeConfig
import BridgeCore
import Foundation
import Testing

@Suite("Config loading")
struct ConfigLoadingTests {
    @Test("an empty file gives the defaults")
    func defaults() throws {
        let config = try ConfigLoader.parse(yaml: "", file: "empty.yaml")
        #expect(config == Configuration())
        #expect(config.mqtt.server == "mqtt://localhost:1883")
        #expect(config.mqtt.baseTopic == "things2mqtt")
        #expect(config.mqtt.effectiveClientID == "things2mqtt_things2mqtt")
        #expect(config.mqtt.keepalive == .seconds(60))
        #expect(config.homeassistant.discoveryPrefix == "homeassistant")
        #expect(config.homeassistant.enabled)
        #expect(!config.homeassistant.legacy)
        #expect(config.logLevel == .info)
    }

    @Test("${ENV} is interpolated, also inside longer strings")
    func interpolation() throws {
        let yaml = """
            mqtt:
              server: mqtt://${T2M_HOST}:${T2M_PORT}
              base_topic: ${T2M_BASE}/bridge1
              username: ${T2M_USER}
              password: ${T2M_PASSWORD}
            """
        let environment = [
            "T2M_HOST": "broker.lan", "T2M_PORT": "1884", "T2M_BASE": "home", "T2M_USER": "bridge", "T2M_PASSWORD": "pa55",
        ]
        let config = try ConfigLoader.parse(yaml: yaml, file: "env.yaml", environment: environment)
        #expect(config.mqtt.host == "broker.lan")
        #expect(config.mqtt.port == 1884)
        #expect(config.mqtt.baseTopic == "home/bridge1")
        #expect(config.mqtt.username == "bridge")
        #expect(config.mqtt.password == "pa55")
        #expect(config.mqtt.effectiveClientID == "things2mqtt_home_bridge1")
    }

    @Test("password_file and token_file are read relative to the config, and redacted")
    func secretsFromFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("s3cret-mqtt\n".utf8).write(to: folder.appendingPathComponent("mqtt.pw"))
        try Data("  lifx-t0ken  \n".utf8).write(to: folder.appendingPathComponent("lifx.token"))
        let yaml = """
            mqtt:
              username: bridge
              password_file: mqtt.pw
            lifx:
              enabled: true
              token_file: lifx.token
            """
        let config = try ConfigLoader.parse(yaml: yaml, file: "secrets.yaml", baseDirectory: folder.path)
        #expect(config.mqtt.password == "s3cret-mqtt")
        #expect(config.lifx.token == "lifx-t0ken")
        let redacted = config.redactedJSON
        #expect(redacted["mqtt"]?["password"] == "***")
        #expect(redacted["mqtt"]?["username"] == "bridge")
        #expect(redacted["lifx"]?["token"] == "***")
        #expect(!redacted.jsonString.contains("s3cret"))
        #expect(!redacted.jsonString.contains("t0ken"))
        #expect(redacted["mqtt"]?["keepalive"] == "1m")
    }

    @Test("a secret given inline and as a file is refused")
    func inlineAndFile() throws {
        let yaml = "mqtt:\n  username: u\n  password: a\n  password_file: b\n"
        let error = #expect(throws: ConfigErrors.self) { try ConfigLoader.parse(yaml: yaml, file: "both.yaml") }
        #expect(error?.issues.contains { $0.keyPath == "mqtt.password_file" && $0.message.contains("not both") } == true)
    }

    @Test("devices: aliases, retain, qos and Home Assistant overrides")
    func devices() throws {
        let yaml = """
            devices:
              lifx_d073d5000001:
                alias: kitchen/ceiling
                qos: 2
                homeassistant:
                  icon: mdi:ceiling-light
                  light:
                    name: Ceiling
              lifx_d073d5000002:
                retain: false
                homeassistant: null
              ble_a4c138aabbcc: {}
            """
        let config = try ConfigLoader.parse(yaml: yaml, file: "devices.yaml")
        let kitchen = try #require(config.devices[DeviceID("lifx_d073d5000001")!])
        #expect(kitchen.alias == "kitchen/ceiling")
        #expect(kitchen.qos == 2)
        #expect(kitchen.retain)
        #expect(kitchen.homeassistant == .overrides(["icon": "mdi:ceiling-light", "light": ["name": "Ceiling"]]))
        let hidden = try #require(config.devices[DeviceID("lifx_d073d5000002")!])
        #expect(!hidden.retain)
        #expect(hidden.homeassistant == .disabled)
        #expect(config.devices[DeviceID("ble_a4c138aabbcc")!]?.homeassistant == .inherit)
        #expect(config.redactedJSON["devices"]?["lifx_d073d5000002"]?["homeassistant"] == .null)
    }

    static let sections: [(String, @Sendable (Configuration) -> Bool)] = [
        ("homeassistant: false", { !$0.homeassistant.enabled }),
        ("homeassistant:\n  legacy: true\n  discovery_prefix: ha", { $0.homeassistant.legacy && $0.homeassistant.discoveryPrefix == "ha" }),
        ("mqtt:\n  version: 5", { $0.mqtt.version == .v5 }),
        ("mqtt:\n  version: 4", { $0.mqtt.version == .v311 }),
        ("mqtt:\n  keepalive: 90", { $0.mqtt.keepalive == .seconds(90) }),
        ("mqtt:\n  keepalive: 2m", { $0.mqtt.keepalive == .seconds(120) }),
        ("mqtt:\n  server: mqtts://broker", { $0.mqtt.usesTLS && $0.mqtt.port == 8883 }),
        ("mqtt:\n  client_id: mine", { $0.mqtt.effectiveClientID == "mine" }),
        ("log_level: WARN", { $0.logLevel == .warning }),
        ("lifx:\n  poll_interval: 10s\n  api_url: http://127.0.0.1:8080/v1", { $0.lifx.pollInterval == .seconds(10) && !$0.lifx.enabled }),
    ]

    @Test("accepted settings", arguments: sections.indices)
    func accepted(index: Int) throws {
        let (yaml, check) = Self.sections[index]
        let config = try ConfigLoader.parse(yaml: yaml, file: "ok.yaml")
        #expect(check(config), "\(yaml)")
    }

    @Test("load(file:) reports an unreadable file as an issue")
    func missingFile() {
        let error = #expect(throws: ConfigErrors.self) {
            try ConfigLoader.load(file: "/nonexistent/things2mqtt.yaml", families: [], environment: [:])
        }
        let issue = error?.issues.first
        #expect(issue?.file == "/nonexistent/things2mqtt.yaml")
        #expect(issue?.message.contains("cannot read") == true)
    }
}
