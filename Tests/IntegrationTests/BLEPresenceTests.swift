import BridgeCore
import DBus
import Foundation
import Testing
import TestSupport

@Suite("BLE presence through the daemon", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker, .busMock))
struct BLEPresenceTests {
    static let nova = "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01"

    @Test("a device not heard from for away_after becomes unavailable and offline, and comes back when heard; permit 0 closes the window")
    func awayAndBack() async throws {
        let broker = try await Broker.start()
        // Subscribed before the daemon starts: each "online" lasts only away_after (2 s) without adverts, which
        // a retained value polled from a loaded machine can miss; the subscription sees every change.
        let client = try await TestClient.connect(to: broker)
        let (device, availability) = ("t2m/ble_aabbccddee01", "t2m/ble_aabbccddee01/availability")
        try await client.subscribe(device)
        try await client.subscribe(availability)
        let standIn = try await BlueZStandIn.start()
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:01")])
        let config = TestConfig.yaml(
            port: broker.port,
            extra: "ble:\n  enabled: true\n  rssi_interval: 0s\n  away_after: 2s\n  connect:\n    - match: {class: nova}\n      policy: never\n")
        let bridge = try BridgeProcess.start(config: config, environment: standIn.environment)
        try await bridge.waitUntilReady(on: broker)
        do {
            let online = try await client.waitForMessage(topic: availability) { $0.json == ["state": "online"] }
            try await client.waitForMessage(topic: availability, after: online.index + 1) { $0.json == ["state": "offline"] }
        } catch {
            Issue.record("first: \(error)\n\(bridge.stderr.suffix(20000))")
            throw error
        }
        #expect(try await broker.retainedJSON(device)?["status"] == "unavailable")
        let back = client.mark
        try await standIn.advertise(Self.nova, rssi: -55)
        do {
            try await client.waitForMessage(topic: availability, after: back) { $0.json == ["state": "online"] }
            try await client.waitForMessage(topic: device, after: back) { $0.json?["status"] == "available" }
        } catch {
            Issue.record("\(error)\n\(bridge.stderr.suffix(20000))")
            throw error
        }
        _ = try await client.request("ble/permit", #"{"time": 60}"#)
        let closed = try await client.request("ble/permit", #"{"time": 0}"#)
        #expect(closed["data"]?["until"] == .null)
        let phone = try await standIn.mock("AddDevice", [.string("hci0"), .string("11:22:33:44:55:66"), .string("Phone")])
        try await standIn.advertise(try #require(phone.first?.string), rssi: -40)
        try await broker.waitForRetained("t2m/bridge/info") { $0.json?["integrations"]?["ble"]?["ignored_devices"] == 1 }
        #expect(try await broker.retained("t2m/ble_112233445566") == nil)
        #expect(try await bridge.terminate() == 0)
        await client.close()
    }

    @Test("a flood of random addresses creates no device, no topic and no discovery config; it is only counted")
    func randomAddressFlood() async throws {
        let rig = try await BLERig.start(novas: ["AA:BB:CC:DD:EE:01"], ble: BLERig.novaRule("never"))
        let (broker, standIn, bridge) = (rig.broker, rig.standIn, rig.bridge)
        try await broker.waitForRetained("t2m/ble_aabbccddee01") { $0.json?["status"] == "available" }
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("t2m/#")
        try await client.subscribe("homeassistant/#")
        let mark = client.mark

        let flood = 400
        let paths = try #require(
            try await standIn.mock("AddRandomDevices", [.string("hci0"), .uint32(UInt32(flood)), .int16(-60), .string("Phone")])
                .first?.array)
        #expect(paths.count == flood)
        try await broker.waitForRetained("t2m/bridge/info", timeout: .seconds(20)) {
            $0.json?["integrations"]?["ble"]?["ignored_devices"] == .number(Double(flood))
        }
        try await client.expectHealthy()
        let devices = try await broker.retainedJSON("t2m/bridge/devices")
        guard case .array(let list)? = devices else { throw TestFailure("no bridge/devices") }
        #expect(list.compactMap { $0["id"]?.stringValue } == ["ble_aabbccddee01"])
        let deviceTopics = Set(client.messages.filter { $0.index >= mark && !$0.retained }.map(\.topic))
            .filter { !$0.hasPrefix("t2m/bridge/") }
        #expect(deviceTopics.allSatisfy { $0.contains("ble_aabbccddee01") }, "\(deviceTopics.sorted().prefix(5))")
        #expect(try await broker.retainedMessages(under: "t2m/#").keys.filter { $0.hasPrefix("t2m/ble_") }
            .allSatisfy { $0.hasPrefix("t2m/ble_aabbccddee01") })
        #expect(try await bridge.terminate() == 0)
        await client.close()
    }
}
