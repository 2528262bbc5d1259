import BridgeCore
import Testing
import TestSupport

@Suite("device/rename and device/remove", .tags(.integration), .timeLimit(.minutes(1)), .needs(.broker))
struct RenameRemoveTests {
    static let lightTopic = "homeassistant/light/t2m_lifx_d073d5000001/light/config"
    static let signalTopic = "homeassistant/sensor/t2m_lifx_d073d5000001/signal/config"
    static let devices = "devices:\n  lifx_d073d5000001:\n    alias: kitchen\n"

    /// A bridge with the colour light announced as `kitchen`, and a client watching events.
    func setUp() async throws -> (Broker, InProcessBridge, TestClient, Int) {
        let broker = try await Broker.start()
        let bridge = try await InProcessBridge.start(broker: broker, yaml: TestConfig.yaml(port: broker.port, extra: Self.devices))
        bridge.driver().announce(Fixtures.colorLight(), state: ["state": "ON", "brightness": 10])
        try await broker.waitForRetained("t2m/kitchen")
        try await broker.waitForRetained("t2m/kitchen/availability")
        try await broker.waitForRetained(Self.lightTopic)
        let client = try await TestClient.connect(to: broker)
        let mark = try await client.watchEvents()
        return (broker, bridge, client, mark)
    }

    @Test("rename moves state and availability and republishes discovery with the new topics")
    func rename() async throws {
        let (broker, bridge, client, mark) = try await setUp()
        let response = try await client.request("device/rename", #"{"from":"kitchen","to":"dining/lamp","transaction":5}"#)
        #expect(response["status"] == "ok", "\(response.jsonString)")
        #expect(response["data"]?["to"] == "dining/lamp")
        #expect(response["transaction"] == 5)
        let event = try await client.waitForEvent("device_renamed", after: mark)
        #expect(event["from"] == "kitchen")
        #expect(event["to"] == "dining/lamp")
        #expect(event["id"] == "lifx_d073d5000001")

        try await broker.waitForNoRetained("t2m/kitchen")
        try await broker.waitForNoRetained("t2m/kitchen/availability")
        #expect(try await broker.retainedJSON("t2m/dining/lamp") == ["state": "ON", "brightness": 10, "status": "ready"])
        #expect(try await broker.retainedJSON("t2m/dining/lamp/availability") == ["state": "online"])
        let light = try await broker.waitForRetained(Self.lightTopic) { $0.json?["state_topic"] == "t2m/dining/lamp" }
        #expect(light.json?["command_topic"] == "t2m/dining/lamp/set")
        #expect(light.json?["unique_id"] == "lifx_d073d5000001_light_t2m")
        #expect(light.json?["device"]?["name"] == "dining/lamp")
        try await broker.waitForRetained("t2m/bridge/devices") {
            $0.json?.entries(where: "id", is: "lifx_d073d5000001")?["alias"] == "dining/lamp"
        }
        // The device answers on its new command topic.
        client.publish("t2m/dining/lamp/set", "OFF")
        let command = try await bridge.driver().waitForCommand()
        #expect(command.command == .set(SetCommand(light: LightCommand(power: .off))))
        await bridge.stop()
        await client.close()
    }

    @Test("an alias too deep, too long or inside the cluster's topic is refused at the request, and the bridge stays")
    func hostileRename() async throws {
        let (broker, bridge, client, _) = try await setUp()
        // 201 levels: the broker drops a client subscribing to a filter that deep.
        let deep = String(repeating: "a/", count: 200) + "a"
        for alias in [deep, String(repeating: "x", count: 300), "_cluster/bridges/other"] {
            let response = try await client.request("device/rename", json: ["from": "kitchen", "to": .string(alias)])
            #expect(response["status"] == "error", "\(response.jsonString.prefix(200))")
        }
        // Still connected and answering on the old alias.
        client.publish("t2m/kitchen/set", "OFF")
        let command = try await bridge.driver().waitForCommand()
        #expect(command.command == .set(SetCommand(light: LightCommand(power: .off))))
        #expect(try await broker.retainedJSON("t2m/kitchen")?["state"] == "ON")
        await bridge.stop()
        await client.close()
    }

    @Test("a saved alias the rules refuse is dropped at start: the device keeps its default alias")
    func savedAliasRepaired() async throws {
        let broker = try await Broker.start()
        let id = DeviceID("lifx_d073d5000001")!
        let deep = String(repeating: "a/", count: 200) + "a"
        let bridge = try await InProcessBridge.start(broker: broker, options: .fastForTests(savedAliases: [id: deep]))
        bridge.driver().announce(Fixtures.colorLight(), state: ["state": "ON"])
        try await broker.waitForRetained("t2m/lifx_d073d5000001") { $0.json?["state"] == "ON" }
        #expect(bridge.logs.all.contains { $0.contains("Ignoring a saved alias that is not usable") })
        let client = try await TestClient.connect(to: broker)
        client.publish("t2m/lifx_d073d5000001/set", "OFF")
        let command = try await bridge.driver().waitForCommand()
        #expect(command.command == .set(SetCommand(light: LightCommand(power: .off))))
        await bridge.stop()
        await client.close()
    }

    @Test("rename with homeassistant_rename clears discovery, then re-creates it")
    func renameInHomeAssistant() async throws {
        let (broker, bridge, client, _) = try await setUp()
        try await client.subscribe(Self.lightTopic)
        let mark = client.mark
        let response = try await client.request("device/rename", #"{"from":"lifx_d073d5000001","to":"hall","homeassistant_rename":true}"#)
        #expect(response["status"] == "ok")
        let cleared = try await client.waitForMessage(topic: Self.lightTopic, after: mark) { $0.payload.isEmpty }
        let recreated = try await client.waitForMessage(topic: Self.lightTopic, after: cleared.index + 1) { !$0.payload.isEmpty }
        #expect(recreated.json?["state_topic"] == "t2m/hall")
        #expect(recreated.json?["default_entity_id"] == "light.hall")
        #expect(try await broker.retainedJSON(Self.signalTopic)?["state_topic"] == "t2m/hall")
        await bridge.stop()
        await client.close()
    }

    @Test("a device named after itself takes the alias it is renamed to, and its own name back with its id")
    func renameUnaliased() async throws {
        let broker = try await Broker.start()
        let bridge = try await InProcessBridge.start(broker: broker)
        bridge.driver().announce(Fixtures.colorLight(label: "Floor Lamp"), state: ["state": "ON"])
        try await broker.waitForRetained(Self.lightTopic) { $0.json?["device"]?["name"] == "Floor Lamp" }
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe(Self.lightTopic)

        var mark = client.mark
        let renamed = try await client.request("device/rename", #"{"from":"lifx_d073d5000001","to":"hall/lamp","homeassistant_rename":true}"#)
        #expect(renamed["status"] == "ok", "\(renamed.jsonString)")
        var cleared = try await client.waitForMessage(topic: Self.lightTopic, after: mark) { $0.payload.isEmpty }
        var recreated = try await client.waitForMessage(topic: Self.lightTopic, after: cleared.index + 1) { !$0.payload.isEmpty }
        #expect(recreated.json?["device"]?["name"] == "hall/lamp")
        #expect(recreated.json?["default_entity_id"] == "light.hall_lamp")
        #expect(recreated.json?["state_topic"] == "t2m/hall/lamp")

        mark = client.mark
        let back = try await client.request("device/rename", #"{"from":"hall/lamp","to":"lifx_d073d5000001","homeassistant_rename":true}"#)
        #expect(back["status"] == "ok", "\(back.jsonString)")
        cleared = try await client.waitForMessage(topic: Self.lightTopic, after: mark) { $0.payload.isEmpty }
        recreated = try await client.waitForMessage(topic: Self.lightTopic, after: cleared.index + 1) { !$0.payload.isEmpty }
        #expect(recreated.json?["device"]?["name"] == "Floor Lamp")
        #expect(recreated.json?["default_entity_id"] == "light.floor_lamp")
        #expect(recreated.json?["state_topic"] == "t2m/lifx_d073d5000001")

        // Without homeassistant_rename only the name changes; Home Assistant keeps the entity id it has.
        mark = client.mark
        let plain = try await client.request("device/rename", #"{"from":"lifx_d073d5000001","to":"porch"}"#)
        #expect(plain["status"] == "ok", "\(plain.jsonString)")
        let updated = try await client.waitForMessage(topic: Self.lightTopic, after: mark) { !$0.payload.isEmpty }
        #expect(updated.json?["device"]?["name"] == "porch")
        #expect(client.messages(on: Self.lightTopic).filter { $0.index >= mark && $0.payload.isEmpty }.isEmpty)
        await bridge.stop()
        await client.close()
    }

    static let refusals: [(String, String)] = [
        (#"{"from":"kitchen","to":"a+b"}"#, "must not contain + or #"),
        (#"{"from":"kitchen","to":"bridge/x"}"#, "must not be or start with bridge"),
        (#"{"from":"kitchen","to":"other"}"#, "is taken by lifx_d073d5000002"),
        (#"{"from":"kitchen","to":"lifx_d073d5000002"}"#, "is the id of another device"),
        (#"{"from":"nobody","to":"x"}"#, "no device \"nobody\""),
        (#"{"to":"x"}"#, "needs \"from\""),
    ]

    @Test("bad renames are refused and change nothing", arguments: refusals)
    func refusedRename(payload: String, reason: String) async throws {
        let (broker, bridge, client, _) = try await setUp()
        bridge.driver().announce(Fixtures.colorLight("lifx_d073d5000002"), state: ["state": "OFF"])
        try await broker.waitForRetained("t2m/bridge/devices") { $0.json?.arrayCount == 2 }
        _ = try await client.request("device/rename", #"{"from":"lifx_d073d5000002","to":"other"}"#)
        let response = try await client.request("device/rename", payload)
        #expect(response["status"] == "error")
        let error = response["error"]?.stringValue ?? ""
        #expect(error.contains(reason), "\(error)")
        #expect(try await broker.retainedJSON("t2m/kitchen") == ["state": "ON", "brightness": 10, "status": "ready"])
        #expect(try await broker.retainedJSON(Self.lightTopic)?["state_topic"] == "t2m/kitchen")
        await bridge.stop()
        await client.close()
    }

    @Test("remove clears state, availability and discovery, drops the device and tells the driver")
    func remove() async throws {
        let (broker, bridge, client, mark) = try await setUp()
        let response = try await client.request("device/remove", #"{"id":"kitchen"}"#)
        #expect(response["status"] == "ok", "\(response.jsonString)")
        #expect(response["data"]?["id"] == "lifx_d073d5000001")
        let event = try await client.waitForEvent("device_removed", after: mark)
        #expect(event["id"] == "lifx_d073d5000001")
        #expect(event["alias"] == "kitchen")
        try await bridge.driver().waitForForget(DeviceID("lifx_d073d5000001")!)
        for topic in ["t2m/kitchen", "t2m/kitchen/availability", Self.lightTopic, Self.signalTopic] {
            try await broker.waitForNoRetained(topic)
        }
        try await broker.waitForRetained("t2m/bridge/devices") { $0.json == [] }
        #expect(try await broker.retained("homeassistant/binary_sensor/things2mqtt_bridge_t2m/connection_state/config") != nil)
        let again = try await client.request("device/remove", #"{"id":"kitchen"}"#)
        #expect(again["status"] == "error")
        await bridge.stop()
        await client.close()
    }

    @Test("a driver reporting a device gone clears it the same way")
    func removedByDriver() async throws {
        let (broker, bridge, client, mark) = try await setUp()
        bridge.driver().emit(.removed(DeviceID("lifx_d073d5000001")!))
        let event = try await client.waitForEvent("device_removed", after: mark)
        #expect(event["reason"] == "gone")
        for topic in ["t2m/kitchen", "t2m/kitchen/availability", Self.lightTopic] {
            try await broker.waitForNoRetained(topic)
        }
        #expect(bridge.driver().forgotten.isEmpty)
        await bridge.stop()
        await client.close()
    }
}
