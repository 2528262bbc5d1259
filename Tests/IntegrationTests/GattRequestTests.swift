import BridgeCore
import DBus
import Foundation
import Testing
import TestSupport

@Suite("GATT read, write and notify over MQTT through the daemon", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker, .busMock))
struct GattRequestTests {
    static let address = "C0:FF:EE:00:00:01"
    static let device = BlueZStandIn.devicePath(address)
    static let battery = "00002a19-0000-1000-8000-00805f9b34fb"
    static let custom = "12345678-1234-5678-1234-56789abcdef1"

    /// A strap with a battery service and a vendor service whose characteristic also appears in a second one.
    func start() async throws -> (Broker, BlueZStandIn, BridgeProcess, TestClient, [String: String]) {
        let rig = try await BLERig.start(extra: "devices:\n  ble_c0ffee000001:\n    alias: strap\n")
        let (broker, standIn, bridge) = (rig.broker, rig.standIn, rig.bridge)
        try await standIn.mock("AddDevice", [.string("hci0"), .string(Self.address), .string("Strap")])
        var paths: [String: String] = [:]
        let batteryService = try await add(standIn, service: "0000180f-0000-1000-8000-00805f9b34fb", handle: 0x10)
        paths["battery"] = try await add(standIn, batteryService, Self.battery, 0x11, ["read", "notify"], [0x55])
        let vendor = try await add(standIn, service: "12345678-1234-5678-1234-56789abcdef0", handle: 0x20)
        paths["custom"] = try await add(standIn, vendor, Self.custom, 0x21, ["read", "write", "write-without-response", "notify"], [])
        let other = try await add(standIn, service: "12345678-1234-5678-1234-56789abcdef9", handle: 0x30)
        paths["twin"] = try await add(standIn, other, "12345678-1234-5678-1234-56789abcdef7", 0x31, ["read"], [1])
        paths["twin2"] = try await add(standIn, vendor, "12345678-1234-5678-1234-56789abcdef7", 0x22, ["read"], [2])
        try await standIn.advertise(Self.device, rssi: -50)
        try await broker.waitForRetained("t2m/strap") { $0.json?["status"] == "available" }
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("t2m/#")
        return (broker, standIn, bridge, client, paths)
    }

    func add(_ standIn: BlueZStandIn, service uuid: String, handle: UInt16) async throws -> String {
        try #require(try await standIn.mock("AddGattService", [.string(Self.device), .string(uuid), .uint16(handle)]).first?.string)
    }

    func add(
        _ standIn: BlueZStandIn, _ service: String, _ uuid: String, _ handle: UInt16, _ flags: [String], _ value: [UInt8]
    ) async throws -> String {
        try #require(
            try await standIn.mock(
                "AddGattCharacteristic",
                [.string(service), .string(uuid), .uint16(handle), .strings(flags), .bytes(value)]
            ).first?.string)
    }

    func writes(_ standIn: BlueZStandIn, _ path: String) async throws -> [String] {
        let reply = try await standIn.mock("GetWrites", [.string(path)])
        return (reply.first?.array ?? []).compactMap { item in
            guard let fields = item.structure, let bytes = fields.first?.bytes, let kind = fields.last?.string else { return nil }
            return bytes.map { String(format: "%02x", $0) }.joined() + " " + kind
        }
    }

    @Test("read connects the device first and answers the bytes; the GATT tree reaches bridge/devices with an interview event")
    func readAndTree() async throws {
        let (broker, standIn, bridge, client, _) = try await start()
        let mark = try await client.watchEvents()
        let read = try await client.request("ble/read", #"{"device": "strap", "characteristic": "2A19"}"#)
        #expect(read["status"] == "ok", "\(read)")
        #expect(read["data"]?["hex"] == "55")
        #expect(read["data"]?["value"] == 85, "a characteristic the bridge decodes comes with its value: \(read)")
        #expect(read["data"]?["characteristic"] == .string(Self.battery))
        try await broker.waitForRetained("t2m/strap") { $0.json?["status"] == "ready" }
        let interview = try await client.waitForEvent("device_interview", after: mark)
        #expect(interview["id"] == "ble_c0ffee000001")
        let devices = try await broker.waitForRetained("t2m/bridge/devices") { message in
            guard case .array(let list)? = message.json else { return false }
            return list.contains { $0["details"]?["gatt"] != nil }
        }
        guard case .array(let list)? = devices.json, let strap = list.first(where: { $0["id"] == "ble_c0ffee000001" }),
            case .array(let services)? = strap["details"]?["gatt"]
        else { throw TestFailure("no GATT tree") }
        #expect(services.count == 3)
        withExtendedLifetime(standIn) {}
        let batteryService = services.first { $0["uuid"] == "0000180f-0000-1000-8000-00805f9b34fb" }
        #expect(batteryService?["name"] == "Battery")
        #expect(batteryService?["characteristics"] == [["uuid": .string(Self.battery), "name": "Battery Level", "flags": ["read", "notify"]]])
        #expect(try await bridge.terminate() == 0)
        await client.close()
    }

    @Test("write sends the exact bytes with or without response; bad input is an error that names the problem")
    func writeAndErrors() async throws {
        let (broker, standIn, bridge, client, paths) = try await start()
        let written = try await client.request("ble/write", #"{"device": "strap", "characteristic": "\#(Self.custom)", "hex": "C0 FF EE"}"#)
        #expect(written["status"] == "ok", "\(written)")
        let command = try await client.request(
            "ble/write", #"{"device": "ble_c0ffee000001", "characteristic": "\#(Self.custom)", "text": "hi", "response": false}"#)
        #expect(command["status"] == "ok", "\(command)")
        #expect(try await writes(standIn, try #require(paths["custom"])) == ["c0ffee request", "6869 command"])

        let cases: [(String, String)] = [
            (#"{"device": "strap", "characteristic": "\#(Self.custom)", "hex": "c0ffe"}"#, "odd number of hex digits"),
            (#"{"device": "strap", "characteristic": "\#(Self.custom)", "hex": "zz"}"#, "is not hex"),
            (#"{"device": "strap", "characteristic": "\#(Self.custom)"}"#, "needs \"hex\" or \"text\""),
            (#"{"device": "strap", "characteristic": "2a37", "hex": "00"}"#, "has no characteristic"),
            (#"{"device": "strap", "characteristic": "2a19", "hex": "00"}"#, "does not allow write"),
            (#"{"device": "strap", "characteristic": "12345678-1234-5678-1234-56789abcdef7", "hex": "00"}"#, "add \"service\""),
            (#"{"device": "nobody", "characteristic": "2a19", "hex": "00"}"#, "no device"),
            (#"{"device": "strap", "characteristic": "not-a-uuid", "hex": "00"}"#, "\"characteristic\""),
        ]
        for (payload, message) in cases {
            let response = try await client.request("ble/write", payload)
            #expect(response["status"] == "error", "\(payload)")
            #expect(response["error"]?.stringValue?.contains(message) == true, "\(payload) → \(response)")
        }
        let twin = try await client.request(
            "ble/read",
            #"{"device": "strap", "characteristic": "12345678-1234-5678-1234-56789abcdef7", "service": "12345678-1234-5678-1234-56789abcdef9"}"#)
        #expect(twin["data"]?["hex"] == "01", "\(twin)")
        #expect(twin["data"]?["value"] == nil, "an unknown characteristic has no value: \(twin)")
        #expect(try await bridge.terminate() == 0)
        await client.close()
        withExtendedLifetime(broker) {}
    }

    @Test("notify puts values in the state under gatt, and stays on across a reconnect until disabled; standard values are decoded")
    func notifyAcrossReconnect() async throws {
        let (broker, standIn, bridge, client, paths) = try await start()
        let custom = try #require(paths["custom"]), battery = try #require(paths["battery"])
        let enabled = try await client.request("ble/notify", #"{"device": "strap", "characteristic": "\#(Self.custom)", "enable": true}"#)
        #expect(enabled["status"] == "ok", "\(enabled)")
        try await standIn.mock("Notify", [.string(custom), .bytes([0xC0, 0xFF, 0xEE])])
        try await broker.waitForRetained("t2m/strap") { $0.json?["gatt"]?[Self.custom] == "c0ffee" }
        // The subscribed characteristic is a sensor of its own, read from the state's gatt object.
        let entity = "homeassistant/sensor/t2m_ble_c0ffee000001/gatt_12345678_1234_5678_1234_56789abcdef1/config"
        let sensor = try await broker.waitForRetained(entity)
        #expect(sensor.json?["value_template"]?.stringValue?.contains("value_json['gatt']['\(Self.custom)']") == true, "\(sensor)")
        #expect(sensor.json?["state_topic"] == "t2m/strap")
        // The battery level is standard: read on connect, subscribed to, and decoded under its own name.
        try await broker.waitForRetained("t2m/strap") { $0.json?["battery"] == 85 }
        try await waitUntil("battery notifications on") { try await notifying(standIn, battery) == true }
        try await standIn.mock("Notify", [.string(battery), .bytes([0x54])])
        try await broker.waitForRetained("t2m/strap") { $0.json?["battery"] == 84 }

        // The link drops and notifications end with it. The strap was connected by hand, so the bridge brings it
        // back at once, and turns them on again: counted at the stand-in, as the off state may last a moment only.
        let starts = try await notifyStarts(standIn, custom)
        _ = try await standIn.control.call(destination: "org.bluez", path: Self.device, interface: "org.bluez.Device1", method: "Disconnect")
        try await waitUntil("notifications on again after the drop") {
            let started = try await notifyStarts(standIn, custom) > starts
            let on = try await notifying(standIn, custom) == true
            return started && on
        }
        let connected = try await client.request("device/connect", #"{"device": "strap"}"#)
        #expect(connected["status"] == "ok", "\(connected)")
        try await standIn.mock("Notify", [.string(custom), .bytes([0x01])])
        try await broker.waitForRetained("t2m/strap") { $0.json?["gatt"]?[Self.custom] == "01" }

        let disabled = try await client.request("ble/notify", #"{"device": "strap", "characteristic": "\#(Self.custom)", "enable": false}"#)
        #expect(disabled["data"]?["enabled"] == false)
        #expect(try await notifying(standIn, custom) == false)
        try await broker.waitForNoRetained(entity)
        #expect(try await bridge.terminate() == 0)
        await client.close()
    }

    func notifyStarts(_ standIn: BlueZStandIn, _ path: String) async throws -> UInt32 {
        try #require(try await standIn.mock("GetNotifyStarts", [.string(path)]).first?.uint32)
    }

    func notifying(_ standIn: BlueZStandIn, _ path: String) async throws -> Bool? {
        try await standIn.control.call(
            destination: "org.bluez", path: path, interface: "org.freedesktop.DBus.Properties", method: "Get",
            arguments: [.string("org.bluez.GattCharacteristic1"), .string("Notifying")]
        ).first?.bool
    }
}
