import BridgeCore
import DBus
import Foundation
import Testing
import TestSupport

@Suite("BLE auto-connect policies through the daemon", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker, .busMock))
struct BLEPolicyTests {
    @Test("closest connects the strongest eligible Nova up to max_devices and leaves a slightly weaker one alone")
    func closest() async throws {
        let broker = try await Broker.start()
        let standIn = try await BlueZStandIn.start()
        let config = TestConfig.yaml(
            port: broker.port,
            extra: "ble:\n  enabled: true\n  rssi_interval: 0s\n  connect:\n    - match: {class: nova}\n      policy: closest\n      max_devices: 1\n")
        let bridge = try BridgeProcess.start(config: config, environment: standIn.environment)
        try await bridge.waitUntilReady(on: broker)
        try await broker.waitForRetained("t2m/bridge/info") { $0.json?["integrations"]?["ble"]?["status"] == "running" }
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:02")])
        for _ in 0..<3 { try await standIn.advertise(BlueZStandIn.devicePath("AA:BB:CC:DD:EE:02"), rssi: -45) }
        try await broker.waitForRetained("t2m/ble_aabbccddee02") { $0.json?["status"] == "ready" }
        // A second Nova, a little weaker: not clearly stronger, so the connection stays where it is.
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:01")])
        try await standIn.advertise(BlueZStandIn.devicePath("AA:BB:CC:DD:EE:01"), rssi: -48)
        try await broker.waitForRetained("t2m/ble_aabbccddee01") { $0.json?["rssi"] == -48 }
        let client = try await TestClient.connect(to: broker)
        try await client.expectHealthy()
        #expect(try await broker.retainedJSON("t2m/ble_aabbccddee01")?["status"] == "available")
        #expect(try await broker.retainedJSON("t2m/ble_aabbccddee02")?["status"] == "ready")

        // A manual disconnect holds, whatever the policy says.
        let disconnected = try await client.request("device/disconnect", #"{"device": "ble_aabbccddee02"}"#)
        #expect(disconnected["status"] == "ok", "\(disconnected)")
        try await standIn.advertise(BlueZStandIn.devicePath("AA:BB:CC:DD:EE:02"), rssi: -44)
        // The advert has been through the driver (and its policy review) once its RSSI is published.
        try await broker.waitForRetained("t2m/ble_aabbccddee02") { $0.json?["rssi"] == -44 }
        #expect(try await broker.retainedJSON("t2m/ble_aabbccddee02")?["status"] == "available")
        #expect(try await bridge.terminate() == 0)
        await client.close()
    }

    @Test("closest moves the connection to a Nova that has stayed clearly stronger for the hold time, not before")
    func closestCrossing() async throws {
        // At debug level the daemon logs when a challenge starts, with every signal it weighed.
        let rig = try await BLERig.start(ble: BLERig.novaRule("closest"), logLevel: "debug")
        let (broker, standIn, bridge) = (rig.broker, rig.standIn, rig.bridge)
        let first = BlueZStandIn.devicePath("AA:BB:CC:DD:EE:01"), second = BlueZStandIn.devicePath("AA:BB:CC:DD:EE:02")
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:01")])
        // The policy weighs the connected flash's signal: this one goes on advertising while connected, as some
        // peripherals do (a Nova does not; most connectable devices fall silent).
        try await standIn.mock("SetAdvertisesWhileConnected", [.string(first), .bool(true)])
        try await standIn.mock("AdvertiseBurst", [.string(first), .uint32(32), .int32(-40)])
        try await broker.waitForRetained("t2m/ble_aabbccddee01") { $0.json?["status"] == "ready" }
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:02")])
        try await standIn.mock("AdvertiseBurst", [.string(second), .uint32(32), .int32(-60)])
        try await broker.waitForRetained("t2m/ble_aabbccddee02") { $0.json?["rssi"] == -60 }

        // The signals cross: the connected flash fades to about 0.2 and the other comes close, about 0.9. How
        // soon the averages cross depends on how many of a burst's readings merge before the driver takes them;
        // at the latest, once the older readings leave the 10 s window. The faded flash's readings (-84 to -75)
        // all stay above min_signal (0.1 at -85): below it the flash would lose its place at once, without the
        // hold, once its earlier, stronger readings left the window.
        let client = try await TestClient.connect(to: broker)
        let mark = try await client.watchEvents()
        // No earlier than this can the bridge see the crossing, so no earlier than 10 s after it may it move.
        let crossed = ContinuousClock.now
        try await standIn.mock("AdvertiseBurst", [.string(first), .uint32(32), .int32(-75)])
        try await standIn.mock("AdvertiseBurst", [.string(second), .uint32(32), .int32(-40)])
        try await broker.waitForRetained("t2m/ble_aabbccddee02") { $0.json?["rssi"] == -40 }
        try await broker.waitForRetained("t2m/ble_aabbccddee01") { $0.json?["rssi"] == -75 }

        let connected = try await client.waitForEvent("device_connected", after: mark, timeout: .seconds(40))
        let held = ContinuousClock.now - crossed
        #expect(connected["id"] == "ble_aabbccddee02")
        // Hysteresis: the challenger must stay stronger for 10 s. A slow machine only makes this longer.
        // It has failed rarely under CI load (a move after 8.8 s); the daemon's log says why, should it again.
        let reviews = bridge.stderr.split(separator: "\n").filter { $0.contains("clearly stronger") || $0.contains("policy disconnects") }
        #expect(held >= .seconds(10), "moved \(held) after the crossing; the policies' debug log:\n\(reviews.joined(separator: "\n"))")
        #expect(reviews.contains { $0.contains("clearly stronger") }, "the debug log names the challenge")
        #expect(reviews.contains { $0.contains("policy disconnects") && $0.contains("ble_aabbccddee01") }, "and the move")
        try await broker.waitForRetained("t2m/ble_aabbccddee02") { $0.json?["status"] == "ready" }
        try await broker.waitForRetained("t2m/ble_aabbccddee01") { $0.json?["status"] == "available" }
        let disconnected = client.messages(on: "t2m/bridge/event").filter { $0.index >= mark }.compactMap(\.json)
            .filter { $0["type"] == "device_disconnected" }.map { $0["data"]?["id"] }
        #expect(disconnected == [.string("ble_aabbccddee01")], "one move, no flapping")
        #expect(try await bridge.terminate() == 0)
        await client.close()
    }
}
