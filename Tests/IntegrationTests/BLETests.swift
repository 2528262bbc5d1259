import BridgeCore
import DBus
import Foundation
import Testing
import TestSupport

@Suite("BLE through the daemon and the BlueZ stand-in", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker, .busMock))
struct BLETests {
    static let nova = "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01"
    static func config(_ port: Int) -> String {
        TestConfig.yaml(port: port, extra: "ble:\n  enabled: true\n  rssi_interval: 0s\n  connect:\n    - match: {class: nova}\n      policy: never\n")
    }

    func devices(_ broker: Broker) async throws -> [String] {
        guard case .array(let list)? = try await broker.retainedJSON("t2m/bridge/devices") else { return [] }
        return list.compactMap { $0["id"]?.stringValue }
    }

    @Test("a Nova appears with its signal and status; unmatched devices stay out until a permit window opens")
    func discovery() async throws {
        let broker = try await Broker.start()
        let standIn = try await BlueZStandIn.start()
        // Already known to BlueZ when the bridge starts, with the stand-in's first reading of -79 dBm.
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:01")])
        let bridge = try BridgeProcess.start(config: Self.config(broker.port), environment: standIn.environment)
        try await bridge.waitUntilReady(on: broker)
        try await broker.waitForRetained("t2m/ble_aabbccddee01") { $0.json?["rssi"] == -79 }
        try await broker.waitForRetained("t2m/bridge/info") { $0.json?["integrations"]?["ble"]?["status"] == "running" }
        try await standIn.advertise(Self.nova, rssi: -50)
        let state = try await broker.waitForRetained("t2m/ble_aabbccddee01") { $0.json?["rssi"] == -50 }
        // Signal is averaged over a short window: the first reading (-79 dBm) and the advert's -50 dBm
        // average -64.5 dBm, which the Nova formula clamp(9 + rssi/10, 0…5) / 5 makes 0.51.
        #expect(state.json?["signal"] == 0.51)
        #expect(state.json?["status"] == "available")
        #expect(state.json?["last_seen"]?.stringValue != nil)
        try await broker.waitForRetained("t2m/ble_aabbccddee01/availability", equals: ["state": "online"])

        // A phone rotating its address is counted, not published.
        let phone = try await standIn.mock("AddDevice", [.string("hci0"), .string("11:22:33:44:55:66"), .string("Phone")])
        let phonePath = try #require(phone.first?.string)
        try await standIn.advertise(phonePath, rssi: -40)
        let client = try await TestClient.connect(to: broker)
        try await client.expectHealthy()
        #expect(try await devices(broker) == ["ble_aabbccddee01"])
        try await broker.waitForRetained("t2m/bridge/info") { $0.json?["integrations"]?["ble"]?["ignored_devices"] == 1 }

        let permit = try await client.request("ble/permit", #"{"time": 60}"#)
        #expect(permit["status"] == "ok")
        #expect(permit["data"]?["until"]?.stringValue != nil)
        try await standIn.advertise(phonePath, rssi: -41)
        try await broker.waitForRetained("t2m/ble_112233445566") { $0.json?["rssi"] == -41 }
        #expect(try await bridge.terminate() == 0)
        await client.close()
    }

    @Test("device/connect connects through BlueZ and the device becomes ready; a BlueZ failure is an error and an event")
    func connect() async throws {
        let broker = try await Broker.start()
        let standIn = try await BlueZStandIn.start()
        let bridge = try BridgeProcess.start(config: Self.config(broker.port), environment: standIn.environment)
        try await bridge.waitUntilReady(on: broker)
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:01")])
        try await standIn.advertise(Self.nova, rssi: -50)
        try await broker.waitForRetained("t2m/ble_aabbccddee01") { $0.json?["status"] == "available" }
        let client = try await TestClient.connect(to: broker)
        let mark = try await client.watchEvents()

        let connected = try await client.request("device/connect", #"{"device": "ble_aabbccddee01"}"#)
        #expect(connected["status"] == "ok", "\(connected)")
        try await broker.waitForRetained("t2m/ble_aabbccddee01") { $0.json?["status"] == "ready" }
        let event = try await client.waitForEvent("device_connected", after: mark)
        #expect(event["id"] == "ble_aabbccddee01")

        _ = try await client.request("device/disconnect", #"{"device": "ble_aabbccddee01"}"#)
        try await standIn.mock("FailNextConnects", [.string(Self.nova), .uint32(1), .string("le-connection-abort-by-local")])
        let failed = try await client.request("device/connect", #"{"device": "ble_aabbccddee01"}"#)
        #expect(failed["status"] == "error")
        #expect(failed["error"]?.stringValue?.contains("le-connection-abort-by-local") == true, "\(failed)")
        let failure = try await client.waitForEvent("connect_failed", after: mark)
        #expect(failure["error"]?.stringValue?.contains("org.bluez.Error.Failed") == true)
        #expect(try await bridge.terminate() == 0)
        await client.close()
    }

    @Test("the adapter powered off and on, and bluetoothd restarting, show in the integration status and heal")
    func adapterAndRestart() async throws {
        let broker = try await Broker.start()
        let standIn = try await BlueZStandIn.start()
        let bridge = try BridgeProcess.start(config: Self.config(broker.port), environment: standIn.environment)
        try await bridge.waitUntilReady(on: broker)
        let status: @Sendable (String, String?) async throws -> Void = { wanted, reason in
            try await broker.waitForRetained("t2m/bridge/info") {
                let ble = $0.json?["integrations"]?["ble"]
                return ble?["status"] == .string(wanted) && ble?["reason"] == reason.map(JSONValue.string) ?? .null
            }
        }
        try await status("running", nil)
        try await standIn.mock("SetPowered", [.string("/org/bluez/hci0"), .bool(false)])
        try await status("offline", "adapter_off")
        try await standIn.mock("SetPowered", [.string("/org/bluez/hci0"), .bool(true)])
        try await status("running", nil)
        try await standIn.stop()
        try await status("offline", "bluez_unavailable")
        try await standIn.restart()
        try await status("running", nil)
        #expect(try await bridge.terminate() == 0)
    }
}
