import BridgeConfig
import Foundation
import HomeAssistantAddon
import TestSupport
import Testing

/// The config the add-on writes from its options: which broker wins, where secrets go, and that the bridge's
/// own config check accepts every config it writes.
@Suite struct AddonConfigTests {
    static let mosquitto = SupervisorMQTT(
        host: "core-mosquitto", port: 1883, username: "addons", password: "Eim\"oh:ph4", addon: "core_mosquitto")

    func generated(_ options: AddonOptions, supervisor: SupervisorMQTT? = mosquitto) throws -> AddonSetup {
        guard case .generated(let setup) = try AddonConfig.plan(options, supervisor: supervisor, data: "/data") else {
            throw TestFailure("expected a generated config")
        }
        return setup
    }

    /// Loads a written config as the bridge does, with its secret files in place.
    func load(_ setup: AddonSetup) throws -> Configuration {
        let folder = try TemporaryDirectory(prefix: "addon")
        defer { folder.remove() }
        var text = setup.configText
        for (path, content) in setup.secretFiles {
            let local = try folder.write(String(path.split(separator: "/").last!), content)
            text = text.replacingOccurrences(of: path, with: local)
        }
        return try ConfigLoader.parse(yaml: text, file: folder.file("things2mqtt.yaml"), baseDirectory: folder.path)
    }

    /// The families a config switches on.
    func enabled(_ config: Configuration) -> Set<String> {
        Set(config.integrations.filter { config.families[$0]?.enabled == true }.map(\.rawValue))
    }

    @Test func everyOptionEmptyRunsBLEAndTheFrontendOnTheSupervisorsBroker() throws {
        let options = try AddonOptions.read(Array("{}".utf8), path: "options.json")
        #expect(AddonConfig.needsSupervisor(options))
        let setup = try generated(options)
        let config = try load(setup)
        #expect(config.mqtt.server == "mqtt://core-mosquitto:1883")
        #expect(config.mqtt.username == "addons")
        #expect(config.mqtt.password?.value == "Eim\"oh:ph4")
        #expect(config.frontend.enabled && config.frontend.host == "0.0.0.0" && config.frontend.port == 8099)
        #expect(config.frontend.allowFrom == ["172.30.32.2"])
        #expect(enabled(config) == ["ble"])
        // The password is in a file of its own, never in the config or the log line.
        #expect(!setup.configText.contains("Eim"))
        #expect(setup.secretFiles == ["/data/secrets/mqtt_password": "Eim\"oh:ph4"])
        #expect(setup.brokerSource == "MQTT broker mqtt://core-mosquitto:1883 from the Supervisor's MQTT service (core_mosquitto), as addons")
    }

    @Test func theOptionsBrokerWinsAndTheSupervisorIsNotAsked() throws {
        let json = #"{"mqtt_server": "mqtts://broker.lan:8883", "mqtt_user": "bridge", "mqtt_password": "pw", "base_topic": "home"}"#
        let options = try AddonOptions.read(Array(json.utf8), path: "options.json")
        #expect(!AddonConfig.needsSupervisor(options))
        let setup = try generated(options, supervisor: nil)
        let config = try load(setup)
        #expect(config.mqtt.server == "mqtts://broker.lan:8883")
        #expect(config.mqtt.username == "bridge" && config.mqtt.password?.value == "pw")
        #expect(config.mqtt.baseTopic == "home")
        #expect(setup.brokerSource == "MQTT broker mqtts://broker.lan:8883 from the add-on's options, as bridge")
        // A server given without a scheme is plain MQTT.
        var bare = AddonOptions()
        bare.mqttServer = "192.168.1.5:1883"
        #expect(try load(generated(bare, supervisor: nil)).mqtt.server == "mqtt://192.168.1.5:1883")
    }

    @Test func emptyStringsCountAsUnset() throws {
        let json = #"{"mqtt_server": "", "mqtt_user": " ", "mqtt_password": "", "ble_bindkeys": [""], "ev3_bricks": [], "config_file": ""}"#
        let options = try AddonOptions.read(Array(json.utf8), path: "options.json")
        #expect(options == AddonOptions())
        #expect(AddonConfig.needsSupervisor(options))
    }

    @Test func aConfigFileWinsOverEveryOption() throws {
        var options = AddonOptions()
        options.configFile = "mine.yaml"
        options.mqttServer = "mqtt://ignored"
        #expect(!AddonConfig.needsSupervisor(options))
        #expect(try AddonConfig.plan(options, supervisor: nil, data: "/data") == .userFile("/config/mine.yaml"))
        options.configFile = "/share/t2m.yaml"
        #expect(try AddonConfig.plan(options, supervisor: nil, data: "/data") == .userFile("/share/t2m.yaml"))
    }

    @Test func noBrokerAnywhereIsAClearError() {
        #expect(throws: AddonError("no MQTT broker: set mqtt_server in the add-on's options or install the Mosquitto broker add-on")) {
            try AddonConfig.plan(AddonOptions(), supervisor: nil, data: "/data")
        }
    }

    @Test func familiesFromTheOptions() throws {
        var options = AddonOptions()
        options.ble = false
        options.lifxToken = "c87…token"
        options.ev3Bricks = ["192.168.1.50", "00:16:53:3F:0C:1E", "/dev/hidraw0", "/dev/rfcomm0"]
        options.bridgeID = "kitchen"
        options.room = "Kitchen"
        options.clusterSecret = "a cluster secret of the home"
        options.logLevel = "debug"
        let setup = try generated(options)
        let config = try load(setup)
        #expect(enabled(config) == ["lifx", "ev3"])
        #expect(config.cluster?.bridgeID == "kitchen" && config.cluster?.room == "Kitchen")
        #expect(config.logLevel == .debug)
        #expect(setup.secretFiles["/data/secrets/lifx_token"] == "c87…token")
        #expect(!setup.configText.contains("c87"))
        #expect(config.cluster?.secret?.value == "a cluster secret of the home")
        #expect(setup.secretFiles["/data/secrets/cluster_secret"] == "a cluster secret of the home")
        #expect(!setup.configText.contains("cluster secret of"))
        for line in ["- wifi: \"192.168.1.50\"", "- bluetooth: \"00:16:53:3F:0C:1E\"", "- usb: \"/dev/hidraw0\"", "- serial: \"/dev/rfcomm0\""] {
            #expect(setup.configText.contains(line), "\(line)")
        }
    }

    @Test func bindkeysGoToAFileTheBLESectionReads() throws {
        var options = AddonOptions()
        options.bleBindkeys = ["A4:C1:38:02:83:F4 = 231d39c1d7cc1ab1aee224cd096db932"]
        let setup = try generated(options)
        #expect(setup.secretFiles["/data/secrets/bindkeys.yaml"] == "\"A4:C1:38:02:83:F4\": \"231d39c1d7cc1ab1aee224cd096db932\"\n")
        #expect(!setup.configText.contains("231d"))
        _ = try load(setup)
        options.bleBindkeys = ["A4:C1:38:02:83:F4"]
        #expect(throws: AddonError.self) { try generated(options) }
    }

    @Test func aBadValueIsReportedByTheBridgesOwnCheck() throws {
        var options = AddonOptions()
        options.bridgeID = "two words"
        #expect(throws: ConfigErrors.self) { try load(generated(options)) }
    }

    @Test(arguments: ["plain", "quo\"te", "back\\slash", "new\nline", "tab\there", "ünï©ødé", "key: value 'quoted' [list]", "\u{1}ctl"])
    func quotedValuesReadBackUnchanged(_ value: String) throws {
        var options = AddonOptions()
        options.baseTopic = value
        options.mqttServer = "mqtt://localhost"
        let config = try ConfigLoader.parse(yaml: try generated(options).configText, file: "things2mqtt.yaml")
        #expect(config.mqtt.baseTopic == value)
    }

    @Test func theSupervisorsAnswer() throws {
        let ok = #"{"result":"ok","data":{"addon":"core_mosquitto","host":"core-mosquitto","port":1883,"ssl":true,"protocol":"3.1.1","username":"u","password":"p"}}"#
        let broker = try SupervisorMQTT.parse(Array(ok.utf8), status: 200)
        #expect(broker == SupervisorMQTT(host: "core-mosquitto", port: 1883, ssl: true, username: "u", password: "p", addon: "core_mosquitto"))
        #expect(broker.server == "mqtts://core-mosquitto:1883")
        let none = #"{"result":"error","message":"No service mqtt available"}"#
        #expect {
            try SupervisorMQTT.parse(Array(none.utf8), status: 400)
        } throws: { ($0 as? AddonError)?.description.contains("No service mqtt available") == true }
        #expect {
            try SupervisorMQTT.parse(Array("Unauthorized".utf8), status: 401)
        } throws: { ($0 as? AddonError)?.description.contains("HTTP status 401") == true }
    }
}
