import BLEModels
import LIFXModels
import Bridge
import BridgeCore
import Synchronization
import Testing
import TestSupport

@Suite("device/connect, device/disconnect, device/remember and device resolution", .timeLimit(.minutes(1)))
struct ConnectionRequestTests {
    static let sensor = DeviceID("ble_a4c138aabbcc")!
    static let config = TestConfig.yaml(
        port: 1883, extra: "devices:\n  ble_a4c138aabbcc:\n    alias: porch/sensor\n  lifx_d073d5000001:\n    alias: kitchen\n")

    func start(options: BridgeOptions = .fastForTests()) async throws -> MemoryBridge {
        let bridge = try await MemoryBridge.start(yaml: Self.config, integrations: [.lifx], connecting: [.ble], options: options)
        bridge.driver(.ble).announce(Fixtures.sensorBox())
        bridge.driver(.lifx).announce(Fixtures.colorLight(), state: ["state": "ON"])
        _ = try await bridge.waitForPublish("t2m/porch/sensor")
        _ = try await bridge.waitForPublish("t2m/kitchen")
        return bridge
    }

    @Test("connect by alias answers once the connection is up; disconnect once it is down")
    func connectAndDisconnect() async throws {
        let bridge = try await start()
        let driver = try #require(bridge.connecting[.ble])
        driver.connectBehaviour(delay: .milliseconds(200))
        let connected = try await bridge.request("device/connect", ["device": "porch/sensor"])
        #expect(connected["status"] == "ok")
        #expect(connected["data"] == ["id": "ble_a4c138aabbcc", "alias": "porch/sensor", "connected": true])
        // The driver's status event travels through the inbox; the response may be out first.
        try await waitUntil("the device ready") {
            JSONValue.parse(bridge.transport.retained("t2m/porch/sensor") ?? [])?["status"] == "ready"
        }
        let disconnected = try await bridge.request("device/disconnect", ["device": "ble_a4c138aabbcc"])
        #expect(disconnected["data"]?["connected"] == false)
        #expect(driver.calls == ["connect ble_a4c138aabbcc", "disconnect ble_a4c138aabbcc"])
        await bridge.stop()
    }

    @Test("a slow connect runs off the request queue: other requests are answered meanwhile")
    func slowConnectDoesNotBlock() async throws {
        let bridge = try await start()
        // Far longer than any machine takes to answer a health_check: only a blocked queue could order them otherwise.
        try #require(bridge.connecting[.ble]).connectBehaviour(delay: .seconds(60))
        let mark = bridge.transport.mark
        bridge.send("t2m/bridge/request/device/connect", #"{"device":"porch/sensor"}"#)
        try await waitUntil("the connect under way") { try #require(bridge.connecting[.ble]).calls == ["connect ble_a4c138aabbcc"] }
        let health = try await bridge.request("health_check")
        #expect(health["status"] == "ok")
        #expect(!bridge.transport.published.dropFirst(mark).contains { $0.topic == "t2m/bridge/response/device/connect" })
        await bridge.stop()
    }

    @Test("a connect that takes longer than the timeout is answered with an error")
    func timeout() async throws {
        var options = BridgeOptions.fastForTests()
        options.connectionTimeout = .milliseconds(200)
        let bridge = try await start(options: options)
        try #require(bridge.connecting[.ble]).connectBehaviour(delay: .seconds(30))
        let response = try await bridge.request("device/connect", ["device": "porch/sensor"])
        #expect(response["status"] == "error")
        #expect(response["error"]?.stringValue?.contains("no connection to ble_a4c138aabbcc within") == true, "\(response)")
        await bridge.stop()
    }

    @Test(
        "bad connection requests are refused with a reason",
        arguments: [
            (#"{"device":"kitchen"}"#, "lifx devices have no connection to control"),
            (#"{"device":"nobody"}"#, "no device \"nobody\""),
            (#"{}"#, "needs \"device\""),
        ])
    func refusals(payload: String, reason: String) async throws {
        let bridge = try await start()
        let mark = bridge.transport.mark
        bridge.send("t2m/bridge/request/device/connect", payload)
        let response = try await bridge.waitForPublish("t2m/bridge/response/device/connect", after: mark)
        #expect(response.json?["status"] == "error")
        #expect(response.json?["error"]?.stringValue?.contains(reason) == true, "\(response.text)")
        #expect(try #require(bridge.connecting[.ble]).calls.isEmpty)
        await bridge.stop()
    }

    @Test("a quick run of remember and forget reaches the driver in the order it was sent")
    func rememberOrder() async throws {
        let bridge = try await start()
        let driver = try #require(bridge.connecting[.ble])
        // Under the inbox's 32 messages per topic, so none is refused.
        for round in 0..<30 {
            let remember = round % 2 == 0
            bridge.send("t2m/bridge/request/device/remember", #"{"device": "porch/sensor", "remember": \#(remember), "transaction": \#(round)}"#)
        }
        _ = try await bridge.waitForPublish("t2m/bridge/response/device/remember") { $0.json?["transaction"] == 29 }
        // The last request forgot the device; every change before it must have reached the driver first.
        try await waitUntil("the driver holding the last word") { driver.rememberedCalls.count == 30 }
        #expect(driver.rememberedCalls.map(\.1) == (0..<30).map { $0 % 2 == 0 })
        #expect(driver.remembered.isEmpty)
        await bridge.stop()
    }

    @Test("remembering is persisted, shown in bridge/devices, told to the driver, and told again at start-up")
    func remember() async throws {
        let saved = Mutex<[Set<DeviceID>]>([])
        var options = BridgeOptions.fastForTests()
        options.saveRemembered = { set in saved.withLock { $0.append(set) } }
        let bridge = try await start(options: options)
        let driver = try #require(bridge.connecting[.ble])
        let response = try await bridge.request("device/remember", ["device": "porch/sensor"])
        #expect(response["data"]?["remembered"] == true)
        #expect(saved.withLock { $0.last } == [Self.sensor])
        #expect(driver.remembered == [Self.sensor])
        try await waitUntil("remembered: true in bridge/devices") {
            guard case .array(let list)? = JSONValue.parse(bridge.transport.retained("t2m/bridge/devices") ?? []) else { return false }
            return list.contains { $0["id"] == "ble_a4c138aabbcc" && $0["remembered"] == true }
        }
        _ = try await bridge.request("device/remember", ["device": "porch/sensor", "remember": false])
        #expect(saved.withLock { $0.last } == [])
        #expect(driver.remembered.isEmpty)
        await bridge.stop()

        var restarted = BridgeOptions.fastForTests()
        restarted.savedRemembered = [Self.sensor]
        let again = try await MemoryBridge.start(yaml: Self.config, connecting: [.ble], options: restarted)
        try await waitUntil("the driver told about the remembered device") { again.connecting[.ble]?.remembered == [Self.sensor] }
        await again.stop()
    }

    @Test("removing a device also forgets that it was remembered")
    func removeForgetsRemembered() async throws {
        let saved = Mutex<[Set<DeviceID>]>([])
        var options = BridgeOptions.fastForTests()
        options.saveRemembered = { set in saved.withLock { $0.append(set) } }
        let bridge = try await start(options: options)
        _ = try await bridge.request("device/remember", ["device": "porch/sensor"])
        #expect(saved.withLock { $0.last } == [Self.sensor])
        let removed = try await bridge.request("device/remove", ["id": "porch/sensor"])
        #expect(removed["status"] == "ok")
        #expect(saved.withLock { $0.last } == [])
        await bridge.stop()
    }

    @Test("integration requests get \"device\" resolved by the bridge; a device of another family is refused")
    func resolution() async throws {
        let bridge = try await start()
        let echo = try await bridge.request("ble/echo", ["device": "porch/sensor", "x": 1])
        #expect(echo["data"] == ["device": "ble_a4c138aabbcc", "x": 1])
        let wrong = try await bridge.request("ble/echo", ["device": "kitchen"])
        #expect(wrong["status"] == "error")
        #expect(wrong["error"]?.stringValue?.contains("is a lifx device, not ble") == true, "\(wrong)")
        await bridge.stop()
    }
}
