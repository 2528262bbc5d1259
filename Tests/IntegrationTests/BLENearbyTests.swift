import BridgeCore
import DBus
import Testing
import TestSupport

@Suite("BLE nearby: what is heard and not admitted", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker, .busMock))
struct BLENearbyTests {
    @Test("ble/nearby lists a device that is not admitted with its name and signal, and drops it once it is a device")
    func nearbyUntilAdmitted() async throws {
        let rig = try await BLERig.start(novas: ["AA:BB:CC:DD:EE:01"], ble: BLERig.novaRule("never"))
        let (broker, standIn, bridge) = (rig.broker, rig.standIn, rig.bridge)
        try await broker.waitForRetained("t2m/ble_aabbccddee01") { $0.json?["status"] == "available" }
        let client = try await TestClient.connect(to: broker)
        let phone = try await standIn.mock("AddDevice", [.string("hci0"), .string("5A:11:22:33:44:55"), .string("Phone")])
        let path = try #require(phone.first?.string)
        try await standIn.advertise(path, rssi: -47)
        let listed = try await waitForValue("the phone in ble/nearby", timeout: .seconds(10)) { () -> JSONValue? in
            let response = try await client.request("ble/nearby", #"{"limit": 10}"#)
            guard case .array(let devices)? = response["data"]?["devices"] else { return nil }
            return devices.first { $0["address"] == "5A:11:22:33:44:55" && $0["rssi"] == -47 }
        }
        #expect(listed["name"] == "Phone" && listed["id"] == "ble_5a1122334455")
        #expect(listed["last_seen"]?.stringValue?.hasSuffix("Z") == true)
        // The admitted Nova is a device, not a nearby address.
        let all = try await client.request("ble/nearby", "{}")
        guard case .array(let devices)? = all["data"]?["devices"] else { throw TestFailure("no devices: \(all)") }
        #expect(!devices.contains { $0["address"] == "AA:BB:CC:DD:EE:01" })
        #expect(all["data"]?["ignored_devices"] == 1)
        let refused = try await client.request("ble/nearby", #"{"limit": 500}"#)
        #expect(refused["status"] == "error")

        _ = try await client.request("ble/permit", #"{"time": 60}"#)
        try await standIn.advertise(path, rssi: -45)
        _ = try await broker.waitForRetained("t2m/ble_5a1122334455", timeout: .seconds(10))
        let after = try await client.request("ble/nearby", "{}")
        #expect(after["data"]?["devices"] == [])
        #expect(try await bridge.terminate() == 0)
        await client.close()
    }
}
