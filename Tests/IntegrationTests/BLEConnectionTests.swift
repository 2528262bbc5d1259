import BridgeCore
import DBus
import Foundation
import Testing
import TestSupport

@Suite("BLE connection upkeep through the daemon", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker, .busMock))
struct BLEConnectionTests {
    static let nova = BlueZStandIn.devicePath("AA:BB:CC:DD:EE:01")

    /// Whether `bridge/devices` lists `id` as remembered.
    static func remembered(_ id: String, in devices: JSONValue?) -> Bool {
        guard case .array(let list)? = devices else { return false }
        return list.contains { $0["id"] == .string(id) && $0["remembered"] == true }
    }

    @Test("failed automatic connects are reported once each and retried with growing back-off until one succeeds")
    func retryWithBackoff() async throws {
        let broker = try await Broker.start()
        let standIn = try await BlueZStandIn.start()
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:01")])
        try await standIn.mock("FailNextConnects", [.string(Self.nova), .uint32(2), .string("le-connection-abort-by-local")])
        let client = try await TestClient.connect(to: broker)
        let mark = try await client.watchEvents()
        let config = TestConfig.yaml(
            port: broker.port, extra: "ble:\n  enabled: true\n  rssi_interval: 0s\n  connect:\n    - match: {class: nova}\n      policy: all\n")
        let bridge = try BridgeProcess.start(config: config, environment: standIn.environment)
        try await bridge.waitUntilReady(on: broker)
        try await broker.waitForRetained("t2m/ble_aabbccddee01", timeout: .seconds(30)) { $0.json?["status"] == "ready" }

        let attempts = try #require(try await standIn.mock("GetConnectAttempts", [.string(Self.nova)]).first?.array)
            .compactMap(\.double)
        #expect(attempts.count == 3, "two failures, then the connect that worked: \(attempts)")
        // The back-off starts at 2 s and never retries sooner.
        for (earlier, later) in zip(attempts, attempts.dropFirst()) {
            #expect(later - earlier >= 1.9, "retried after \(later - earlier) s")
        }
        let failures = client.messages(on: "t2m/bridge/event").filter { $0.index >= mark }.compactMap(\.json)
            .filter { $0["type"] == "connect_failed" }
        #expect(failures.count == 2)
        #expect(failures.allSatisfy { $0["data"]?["error"]?.stringValue?.contains("le-connection-abort-by-local") == true })
        #expect(try await bridge.terminate() == 0)
        #expect(bridge.stderr.components(separatedBy: "BLE auto-connect failed").count - 1 == 2, "each failure logged once")
        await client.close()
    }

    @Test("a device remembered through device/connect is connected again by the remembered policy after a restart")
    func rememberedAcrossRestart() async throws {
        let rig = try await BLERig.start(novas: ["AA:BB:CC:DD:EE:01", "AA:BB:CC:DD:EE:02"], ble: BLERig.novaRule("remembered"))
        let (broker, standIn, bridge) = (rig.broker, rig.standIn, rig.bridge)
        try await broker.waitForRetained("t2m/ble_aabbccddee01") { $0.json?["status"] == "available" }
        let client = try await TestClient.connect(to: broker)
        let connected = try await client.request("device/connect", #"{"device": "ble_aabbccddee01", "remember": true}"#)
        #expect(connected["status"] == "ok", "\(connected)")
        try await broker.waitForRetained("t2m/bridge/devices") { Self.remembered("ble_aabbccddee01", in: $0.json) }
        #expect(try await bridge.terminate() == 0)
        let memory = try String(contentsOfFile: bridge.directory.file("things2mqtt-aliases.json"), encoding: .utf8)

        // bluetoothd drops the link while the bridge is away; the next bridge starts from the file alone.
        _ = try await standIn.control.call(
            destination: "org.bluez", path: Self.nova, interface: "org.bluez.Device1", method: "Disconnect")
        let restarted = try await rig.restartBridge(files: ["things2mqtt-aliases.json": memory])
        try await broker.waitForRetained("t2m/ble_aabbccddee01") { $0.json?["status"] == "ready" }
        try await broker.waitForRetained("t2m/bridge/devices") { Self.remembered("ble_aabbccddee01", in: $0.json) }
        // The policy connects only what was remembered.
        try await standIn.advertise(BlueZStandIn.devicePath("AA:BB:CC:DD:EE:02"), rssi: -41)
        try await broker.waitForRetained("t2m/ble_aabbccddee02") { $0.json?["rssi"] == -41 }
        try await client.expectHealthy()
        #expect(try await broker.retainedJSON("t2m/ble_aabbccddee02")?["status"] == "available")
        #expect(try await restarted.terminate() == 0)
        await client.close()
    }

    @Test("a device connected by hand is connected again when bluetoothd comes back, and a failed manual connect holds nothing")
    func manualAcrossBluetoothdRestart() async throws {
        let rig = try await BLERig.start(novas: ["AA:BB:CC:DD:EE:01"], ble: BLERig.novaRule("never"))
        let (broker, standIn, bridge) = (rig.broker, rig.standIn, rig.bridge)
        try await standIn.advertise(Self.nova, rssi: -50)
        try await broker.waitForRetained("t2m/ble_aabbccddee01") { $0.json?["status"] == "available" }
        let client = try await TestClient.connect(to: broker)
        #expect(try await client.request("device/connect", #"{"device": "ble_aabbccddee01"}"#)["status"] == "ok")

        try await standIn.restart()
        try await broker.waitForRetained("t2m/ble_aabbccddee01") { $0.json?["status"] == "unavailable" }
        // bluetoothd is back and finds the flash again.
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:01")])
        try await standIn.advertise(Self.nova, rssi: -50)
        try await broker.waitForRetained("t2m/ble_aabbccddee01", timeout: .seconds(20)) { $0.json?["status"] == "ready" }

        // A second flash whose manual connect fails is not retried behind the user's back.
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:02")])
        let second = BlueZStandIn.devicePath("AA:BB:CC:DD:EE:02")
        try await standIn.advertise(second, rssi: -50)
        try await broker.waitForRetained("t2m/ble_aabbccddee02") { $0.json?["status"] == "available" }
        try await standIn.mock("FailNextConnects", [.string(second), .uint32(1), .string("le-connection-abort-by-local")])
        #expect(try await client.request("device/connect", #"{"device": "ble_aabbccddee02"}"#)["status"] == "error")
        // A retry would come after the 2–2.4 s back-off and the next once-a-second review.
        try await Task.sleep(for: .seconds(4))
        let attempts = try await standIn.mock("GetConnectAttempts", [.string(second)]).first?.array ?? []
        #expect(attempts.count == 1)
        #expect(try await bridge.terminate() == 0)
        await client.close()
    }
}
