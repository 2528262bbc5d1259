import LIFXModels
import BridgeCore
import Testing
import TestSupport

@Suite("Commands, availability and Home Assistant birth", .tags(.integration), .timeLimit(.minutes(1)), .needs(.broker))
struct DeviceTrafficTests {
    static let devices = "devices:\n  lifx_d073d5000001:\n    alias: kitchen\n"

    /// The bridge (which keeps its broker alive) with `kitchen` announced, and a connected client.
    func start() async throws -> (Broker, InProcessBridge, TestClient) {
        let broker = try await Broker.start()
        let bridge = try await InProcessBridge.start(broker: broker, yaml: TestConfig.yaml(port: broker.port, extra: Self.devices))
        bridge.driver().announce(Fixtures.colorLight(), state: ["state": "ON", "brightness": 10])
        try await broker.waitForRetained("t2m/kitchen")
        return (broker, bridge, try await TestClient.connect(to: broker))
    }

    @Test("Home Assistant's birth message makes the bridge re-publish state within the birth delay")
    func birth() async throws {
        let (_, bridge, client) = try await start()  // the bridge holds the broker
        try await client.subscribe("t2m/kitchen")
        try await client.subscribe("t2m/bridge/state")
        let first = try await client.waitForMessage(topic: "t2m/kitchen")
        #expect(first.retained)
        let mark = client.mark
        client.publish("homeassistant/status", "online")
        let again = try await client.waitForMessage(topic: "t2m/kitchen", after: mark, timeout: .seconds(5))
        #expect(!again.retained)
        #expect(again.json == ["state": "ON", "brightness": 10, "status": "ready"])
        let state = try await client.waitForMessage(topic: "t2m/bridge/state", after: mark)
        #expect(state.json == ["state": "online"])
        await bridge.stop()
        await client.close()
    }

    @Test("valid /set, /set/<attr> and /get reach the driver as typed commands")
    func commands() async throws {
        let (_, bridge, client) = try await start()  // the bridge holds the broker
        let driver = bridge.driver()
        let id = DeviceID("lifx_d073d5000001")!
        client.publish("t2m/kitchen/set", #"{"state":"ON","brightness":200,"color":{"h":120,"s":50}}"#)
        client.publish("t2m/kitchen/set/color_temp", "250")
        client.publish("t2m/kitchen/get", "")
        client.publish("t2m/lifx_d073d5000001/set", "toggle")
        let expected: [DeviceCommand] = [
            .set(SetCommand(light: LightCommand(power: .on, brightness: 200, color: .init(hue: 120, saturation: 50)))),
            .set(SetCommand(light: LightCommand(kelvin: 4000))),
            .refresh([]),
            .set(SetCommand(light: LightCommand(power: .toggle))),
        ]
        for (index, command) in expected.enumerated() {
            let received = try await driver.waitForCommand(at: index)
            #expect(received == ScriptedDriver.Received(device: id, command: command))
        }
        await bridge.stop()
        await client.close()
    }

    @Test("invalid or refused commands become command_failed events")
    func failures() async throws {
        let (_, bridge, client) = try await start()  // the bridge holds the broker
        let driver = bridge.driver()
        var mark = try await client.watchEvents()
        client.publish("t2m/kitchen/set", #"{"brightness":999}"#)
        let invalid = try await client.waitForEvent("command_failed", after: mark)
        #expect(invalid["id"] == "lifx_d073d5000001")
        #expect(invalid["alias"] == "kitchen")
        #expect(invalid["error"]?.stringValue?.contains("out of range") == true)
        #expect(driver.commands.isEmpty)
        #expect(bridge.logs.all.contains { $0.hasPrefix("WARNING [bridge] Command refused") && $0.contains("alias=kitchen") })

        mark = client.mark
        driver.failCommands(with: CommandError("light is unreachable"))
        client.publish("t2m/kitchen/set", "ON")
        let refused = try await client.waitForEvent("command_failed", after: mark)
        #expect(refused["error"] == "light is unreachable")

        mark = client.mark
        driver.emit(.occurred(DeviceID("lifx_d073d5000001")!, .commandFailed("cloud said no")))
        let later = try await client.waitForEvent("command_failed", after: mark)
        #expect(later["error"] == "cloud said no")
        await bridge.stop()
        await client.close()
    }

    @Test("availability, integration status and driver requests")
    func statusAndRequests() async throws {
        let (broker, bridge, client) = try await start()
        let driver = bridge.driver()
        let mark = try await client.watchEvents()
        driver.emit(.status(DeviceID("lifx_d073d5000001")!, .unavailable))
        try await broker.waitForRetained("t2m/kitchen/availability", equals: ["state": "offline"])
        try await client.waitForEvent("device_disconnected", after: mark) { $0["alias"] == "kitchen" }
        try await broker.waitForRetained("t2m/bridge/devices") {
            $0.json?.entries(where: "id", is: "lifx_d073d5000001")?["status"] == "offline"
        }

        driver.emit(.integrationStatus(.lifx, IntegrationStatus(.unauthorized, detail: "bad token")))
        try await client.waitForEvent("integration_status", after: mark) { $0["status"] == "unauthorized" }
        try await broker.waitForRetained("t2m/bridge/info") { $0.json?["integrations"]?["lifx"]?["status"] == "unauthorized" }
        let health = try await client.request("health_check", "{}")
        #expect(health["status"] == "ok")
        #expect(health["data"]?["healthy"] == false)

        let echo = try await client.request("lifx/echo", #"{"x":1,"transaction":"t"}"#)
        #expect(echo["status"] == "ok")
        #expect(echo["data"] == ["x": 1])
        #expect(echo["transaction"] == "t")
        let unknown = try await client.request("lifx/nope", "{}")
        #expect(unknown["status"] == "error")
        #expect(unknown["error"]?.stringValue?.contains("no request \"nope\"") == true)
        let disabled = try await client.request("ble/scan", "{}")
        #expect(disabled["error"]?.stringValue?.contains("not enabled") == true)
        #expect(driver.requestNames == ["echo", "nope"])
        await bridge.stop()
        await client.close()
    }
}
