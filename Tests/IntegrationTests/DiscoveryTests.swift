import BridgeCore
import Foundation
import Testing
import TestSupport

@Suite("Home Assistant discovery payloads", .tags(.integration), .timeLimit(.minutes(1)), .needs(.broker))
struct DiscoveryTests {
    static let lightTopic = "homeassistant/light/t2m_lifx_d073d5000001/light/config"
    static let signalTopic = "homeassistant/sensor/t2m_lifx_d073d5000001/signal/config"
    static let devices = "devices:\n  lifx_d073d5000001:\n    alias: kitchen/ceiling\n"

    @Test("a colour light: identity, device, origin, availability, JSON schema in kelvin")
    func modernLight() async throws {
        let broker = try await Broker.start()
        let bridge = try await InProcessBridge.start(
            broker: broker, yaml: TestConfig.yaml(port: broker.port, extra: Self.devices))
        bridge.driver().announce(Fixtures.colorLight(), state: ["state": "ON", "brightness": 128, "color_temp": 4000])
        let config = try #require(try await broker.waitForRetained(Self.lightTopic).json)

        #expect(config["unique_id"] == "lifx_d073d5000001_light_t2m")
        #expect(config["name"] == .null)
        #expect(config["default_entity_id"] == "light.kitchen_ceiling")
        #expect(config["object_id"] == "kitchen_ceiling")
        #expect(config["schema"] == "json")
        #expect(config["state_topic"] == "t2m/kitchen/ceiling")
        #expect(config["command_topic"] == "t2m/kitchen/ceiling/set")
        #expect(config["supported_color_modes"] == ["hs", "color_temp"])
        #expect(config["color_temp_kelvin"] == true)
        #expect(config["min_kelvin"] == 1500)
        #expect(config["max_kelvin"] == 9000)
        #expect(config["min_mireds"] == nil)
        #expect(config["color_mode"] == nil)
        #expect(config["effect"] == true)
        #expect(config["effect_list"] == ["pulse", "breathe"])
        #expect(config["availability_mode"] == "all")
        #expect(
            config["availability"] == [
                ["topic": "t2m/bridge/state", "value_template": "{{ value_json.state }}"],
                ["topic": "t2m/kitchen/ceiling/availability", "value_template": "{{ value_json.state }}"],
            ])
        let device = try #require(config["device"])
        #expect(device["identifiers"] == ["things2mqtt_lifx_d073d5000001"])
        #expect(device["via_device"] == "things2mqtt_bridge_t2m")
        #expect(device["name"] == "kitchen/ceiling")
        #expect(device["manufacturer"] == "LIFX")
        #expect(device["model"] == "LIFX A19")
        #expect(device["model_id"] == "a19")
        #expect(device["serial_number"] == "d073d5000001")
        #expect(device["sw_version"] == "3.70")
        #expect(device["connections"] == [["mac", "d0:73:d5:00:00:01"]])
        #expect(config["origin"]?["name"] == "things2mqtt")
        #expect(config["origin"]?["sw_version"] == "0.0.0-test")

        let signal = try #require(try await broker.waitForRetained(Self.signalTopic).json)
        #expect(signal["unique_id"] == "lifx_d073d5000001_signal_t2m")
        #expect(signal["default_entity_id"] == "sensor.kitchen_ceiling_signal")
        #expect(signal["entity_category"] == "diagnostic")
        #expect(signal["value_template"] == "{{ value_json['signal'] if value_json['signal'] is defined else 'None' }}")
        #expect(signal["device"] == device)

        let bridgeConfig = try #require(
            try await broker.retainedJSON("homeassistant/binary_sensor/things2mqtt_bridge_t2m/connection_state/config"))
        #expect(bridgeConfig["device"]?["identifiers"] == ["things2mqtt_bridge_t2m"])
        #expect(bridgeConfig["state_topic"] == "t2m/bridge/state")

        let state = try await broker.waitForRetained("t2m/kitchen/ceiling")
        #expect(state.json == ["state": "ON", "brightness": 128, "color_temp": 4000, "status": "ready"])
        #expect(try await broker.retainedJSON("t2m/kitchen/ceiling/availability") == ["state": "online"])
        await bridge.stop()
    }

    @Test("without an alias a device is named after itself in Home Assistant; its topics keep the id")
    func ownNames() async throws {
        let broker = try await Broker.start()
        let bridge = try await InProcessBridge.start(
            broker: broker, yaml: TestConfig.yaml(port: broker.port, extra: Self.devices))
        var nameless = Fixtures.colorLight("lifx_d073d5000003")
        nameless.label = "  "
        bridge.driver().announce(Fixtures.colorLight("lifx_d073d5000002", label: "Floor Lamp"), state: ["state": "ON"])
        bridge.driver().announce(Fixtures.colorLight(label: "Kitchen"), state: ["state": "ON"])
        bridge.driver().announce(nameless, state: ["state": "OFF"])
        bridge.driver().announce(Fixtures.colorLight("lifx_d073d5000004", label: "Küche Decke"), state: ["state": "OFF"])

        let lamp = try #require(try await broker.waitForRetained("homeassistant/light/t2m_lifx_d073d5000002/light/config").json)
        #expect(lamp["device"]?["name"] == "Floor Lamp")
        #expect(lamp["name"] == .null)
        #expect(lamp["default_entity_id"] == "light.floor_lamp")
        #expect(lamp["object_id"] == "floor_lamp")
        #expect(lamp["unique_id"] == "lifx_d073d5000002_light_t2m")
        #expect(lamp["state_topic"] == "t2m/lifx_d073d5000002")
        #expect(lamp["command_topic"] == "t2m/lifx_d073d5000002/set")
        #expect(
            lamp["availability"] == [
                ["topic": "t2m/bridge/state", "value_template": "{{ value_json.state }}"],
                ["topic": "t2m/lifx_d073d5000002/availability", "value_template": "{{ value_json.state }}"],
            ])
        let signal = try #require(try await broker.waitForRetained("homeassistant/sensor/t2m_lifx_d073d5000002/signal/config").json)
        #expect(signal["default_entity_id"] == "sensor.floor_lamp_signal")
        #expect(try await broker.waitForRetained("t2m/lifx_d073d5000002").json == ["state": "ON", "status": "ready"])

        // A chosen alias wins over the device's own name.
        let kitchen = try #require(try await broker.waitForRetained(Self.lightTopic).json)
        #expect(kitchen["device"]?["name"] == "kitchen/ceiling")
        #expect(kitchen["default_entity_id"] == "light.kitchen_ceiling")

        // Without a usable label the id is all there is.
        let unnamed = try #require(try await broker.waitForRetained("homeassistant/light/t2m_lifx_d073d5000003/light/config").json)
        #expect(unnamed["device"]?["name"] == "lifx_d073d5000003")
        #expect(unnamed["default_entity_id"] == "light.lifx_d073d5000003")

        // Accents are dropped from entity ids, as Home Assistant does; the name keeps them.
        let accented = try #require(try await broker.waitForRetained("homeassistant/light/t2m_lifx_d073d5000004/light/config").json)
        #expect(accented["device"]?["name"] == "Küche Decke")
        #expect(accented["default_entity_id"] == "light.kuche_decke")

        let inventory = try await broker.waitForRetained("t2m/bridge/devices") { $0.json?.arrayCount == 4 }
        let entry = inventory.json?.entries(where: "id", is: "lifx_d073d5000002")
        #expect(entry?["alias"] == "lifx_d073d5000002")
        #expect(entry?["label"] == "Floor Lamp")
        await bridge.stop()
    }

    @Test("a scene entity is named after the scene")
    func sceneNames() async throws {
        let broker = try await Broker.start()
        let bridge = try await InProcessBridge.start(broker: broker)
        let scenes = DeviceDescriptor(
            id: DeviceID("lifx_account_cc7e033643c84f00b874830690884adc")!, kind: "scenes", manufacturer: "LIFX",
            model: "LIFX scenes", label: "LIFX scenes",
            exposes: [
                .scene(objectID: "scene_05bfb786ec87", name: "Evening", value: "05bfb786-ec87-4766-a61a-8698b3e08b81"),
                .scene(objectID: "scene_9a1c0e55d2b4", name: "Movie Night", value: "9a1c0e55-d2b4-4f0e-9a55-0c4b7a1de111"),
            ])
        bridge.driver().announce(scenes)
        let node = "homeassistant/scene/t2m_lifx_account_cc7e033643c84f00b874830690884adc"
        let evening = try #require(try await broker.waitForRetained("\(node)/scene_05bfb786ec87/config").json)
        #expect(evening["name"] == "Evening")
        #expect(evening["default_entity_id"] == "scene.evening")
        #expect(evening["object_id"] == "evening")
        #expect(evening["device"]?["name"] == "LIFX scenes")
        #expect(evening["command_topic"] == "t2m/lifx_account_cc7e033643c84f00b874830690884adc/set")
        let movie = try #require(try await broker.waitForRetained("\(node)/scene_9a1c0e55d2b4/config").json)
        #expect(movie["default_entity_id"] == "scene.movie_night")
        await bridge.stop()
    }

    @Test("legacy mode: no model_id/serial_number, color_mode and brightness flags, mireds")
    func legacyLight() async throws {
        let broker = try await Broker.start()
        let bridge = try await InProcessBridge.start(
            broker: broker, yaml: TestConfig.yaml(port: broker.port, legacy: true, extra: Self.devices))
        bridge.driver().announce(Fixtures.colorLight(), state: ["state": "ON", "color_temp": 4000])
        let config = try #require(try await broker.waitForRetained(Self.lightTopic).json)
        let device = try #require(config["device"]?.objectValue)
        #expect(device["model_id"] == nil)
        #expect(device["serial_number"] == nil)
        #expect(device["identifiers"] == ["things2mqtt_lifx_d073d5000001"])
        #expect(config["color_mode"] == true)
        #expect(config["brightness"] == true)
        // 9000 K is 111.1 mireds and 1500 K is 666.7 mireds: rounded inwards so both ends convert back into range.
        #expect(config["min_mireds"] == 112)
        #expect(config["max_mireds"] == 666)
        #expect(config["color_temp_kelvin"] == nil)
        #expect(config["min_kelvin"] == nil)
        #expect(config["max_kelvin"] == nil)
        // Legacy Home Assistant reads colour temperature in mireds from the state too.
        let state = try await broker.waitForRetained("t2m/kitchen/ceiling")
        #expect(state.json?["color_temp"] == 250)
        await bridge.stop()
    }

    @Test("homeassistant: null on a device publishes no config; overrides are merged per entity")
    func perDeviceSettings() async throws {
        let broker = try await Broker.start()
        let extra = """
            devices:
              lifx_d073d5000001:
                alias: kitchen
                homeassistant:
                  icon: mdi:ceiling-light
                  light:
                    name: Ceiling
                  signal:
                    entity_category: null
                    enabled_by_default: false
              lifx_d073d5000002:
                alias: hidden
                homeassistant: null

            """
        let bridge = try await InProcessBridge.start(broker: broker, yaml: TestConfig.yaml(port: broker.port, extra: extra))
        bridge.driver().announce(Fixtures.colorLight(), state: ["state": "ON"])
        bridge.driver().announce(Fixtures.colorLight("lifx_d073d5000002", label: "Hidden"), state: ["state": "OFF"])
        // bridge/devices is published after the discovery configs of the devices it lists.
        let inventory = try await broker.waitForRetained("t2m/bridge/devices") { $0.json?.arrayCount == 2 }
        #expect(inventory.json?.entries(where: "id", is: "lifx_d073d5000002")?["homeassistant"] == false)

        #expect(try await broker.retained("homeassistant/light/t2m_lifx_d073d5000002/light/config") == nil)
        #expect(try await broker.retained("homeassistant/sensor/t2m_lifx_d073d5000002/signal/config") == nil)
        #expect(try await broker.retainedJSON("t2m/hidden") == ["state": "OFF", "status": "ready"])

        let light = try #require(try await broker.retainedJSON(Self.lightTopic))
        #expect(light["name"] == "Ceiling")
        #expect(light["icon"] == "mdi:ceiling-light")
        #expect(light["unique_id"] == "lifx_d073d5000001_light_t2m")
        let signal = try #require(try await broker.retainedJSON(Self.signalTopic))
        #expect(signal["name"] == "Signal")
        #expect(signal["icon"] == "mdi:ceiling-light")
        #expect(signal["entity_category"] == nil)
        #expect(signal["enabled_by_default"] == false)
        await bridge.stop()
    }

    @Test("homeassistant.enabled false publishes no discovery at all")
    func disabled() async throws {
        let broker = try await Broker.start()
        let yaml = TestConfig.yaml(port: broker.port).replacingOccurrences(of: "  legacy: false", with: "  enabled: false")
        let bridge = try await InProcessBridge.start(broker: broker, yaml: yaml)
        bridge.driver().announce(Fixtures.colorLight(), state: ["state": "ON"])
        try await broker.waitForRetained("t2m/bridge/devices") { $0.json?.arrayCount == 1 }
        #expect(try await broker.retainedMessages(under: "homeassistant/#").isEmpty)
        #expect(try await broker.retainedJSON("t2m/lifx_d073d5000001") == ["state": "ON", "status": "ready"])
        await bridge.stop()
    }
}

extension JSONValue {
    /// The number of elements of an array, nil for other kinds.
    var arrayCount: Int? {
        if case .array(let items) = self { return items.count }
        return nil
    }

    /// The first object in an array whose `key` equals `value`.
    func entries(where key: String, is value: JSONValue) -> JSONValue? {
        guard case .array(let items) = self else { return nil }
        return items.first { $0[key] == value }
    }
}
