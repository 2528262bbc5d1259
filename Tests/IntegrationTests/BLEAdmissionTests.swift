import BridgeCore
import Testing
import TestSupport

@Suite("Forged adverts through the daemon: new passive sensors are bounded", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker, .busMock))
struct BLEAdmissionTests {
    /// A pvvx payload from A4:C1:38:`a`:`b`:`c` (the MAC reversed): 23.45 °C, 45.67 %, 2.95 V, 85 %, `counter`.
    static func pvvx(_ a: UInt8, _ b: UInt8, _ c: UInt8, counter: UInt8 = 0x12) -> [UInt8] {
        [c, b, a, 0x38, 0xC1, 0xA4, 0x29, 0x09, 0xD7, 0x11, 0x86, 0x0B, 0x55, counter, 0x05]
    }

    static func devices(_ broker: Broker) async throws -> [String] {
        guard case .array(let list)? = try await broker.retainedJSON("t2m/bridge/devices") else { return [] }
        return list.compactMap { $0["id"]?.stringValue }.filter { $0.hasPrefix("ble_") }
    }

    @Test("120 forged sensors sent in seconds: no more than the burst appear, one event says so, the permit window still admits")
    func forgedSensors() async throws {
        let rig = try await BLERig.start(liveSignal: false)
        let client = try await TestClient.connect(to: rig.broker)
        let mark = try await client.watchEvents()
        let added = try await rig.standIn.mock("AddSensors", [.string("hci0"), .uint32(1), .uint32(120)])
        let paths = added.first?.array?.compactMap(\.string) ?? []
        #expect(paths.count == 120)
        // AddSensors numbers them A4:C1:38:00:00:01 and on.
        for (index, path) in paths.enumerated() {
            try await rig.standIn.advertise(path, rssi: -60, serviceData: ["181a": Self.pvvx(0, 0, UInt8(index + 1))])
        }
        // Every sensor is either a device or counted as ignored once the bridge has handled its advert.
        let admitted = try await waitForValue("every forged sensor admitted or ignored", timeout: .seconds(30), every: .milliseconds(200)) {
            let devices = try await Self.devices(rig.broker).count
            let ignored = try await rig.broker.retainedJSON("t2m/bridge/info")?["integrations"]?["ble"]?["ignored_devices"]?.doubleValue
            return devices + Int(ignored ?? 0) == 120 ? devices : nil
        }
        // 50 at once, then 10 a minute: well under 80 % (96) of them.
        #expect(admitted >= 50 && admitted <= 52, "\(admitted) of 120 forged sensors admitted")
        let refused = try await client.waitForEvent("admission_refused", after: mark)
        #expect(refused["integration"] == "ble" && refused["reason"] == "rate", "\(refused)")
        let events = client.messages(on: "t2m/bridge/event").filter { $0.index >= mark && $0.json?["type"] == "admission_refused" }
        #expect(events.count == 1, "\(events.map(\.text))")

        // The permit window lets in a refused one.
        let last = try #require(paths.last)
        #expect(try await client.request("ble/permit", #"{"time": 60}"#)["status"] == "ok")
        try await rig.standIn.advertise(last, rssi: -60, serviceData: ["181a": Self.pvvx(0, 0, 120, counter: 0x13)])
        try await rig.broker.waitForRetained("t2m/ble_a4c138000078") { $0.json?["temperature"] == 23.45 }
        #expect(try await rig.bridge.terminate() == 0)
        await client.close()
    }

    /// Payloads of other formats, each decodable: BTHome with `pm25`, `co2`, `lock` and a 1977 `timestamp`, an
    /// atc1441 frame from the same MAC, an Oral-B brush, a RuuviTag and a sealed MiBeacon.
    static let spoofs: [(service: [String: [UInt8]], manufacturer: [UInt16: [UInt8]])] = [
        (["fcd2": [0x40, 0x00, 0x01, 0x0D, 0x0C, 0x00, 0x12, 0xE2, 0x04, 0x1F, 0x01, 0x50, 0x00, 0xEF, 0x1C, 0x0D]], [:]),
        (["181a": [0xA4, 0xC1, 0x38, 0x12, 0x34, 0x56, 0x00, 0xFA, 50, 80, 0x0B, 0xB8, 7]], [:]),
        ([:], [0x00DC: hex("04270d0332000601011404")]),
        ([:], [0x0499: hex("0505a060a0c89afd34028cff006376726976dead7b3fefaf")]),
        (["fe95": hex("58585b0550f4830238c1a495ef58763c26000097e2abb5")], [:]),
    ]

    @Test("adverts of other formats from a known pvvx thermometer's address add nothing; its own still move its temperature")
    func spoofedFormats() async throws {
        let rig = try await BLERig.start(liveSignal: false)
        let topic = "t2m/ble_a4c138123456"
        let added = try await rig.standIn.mock("AddDevice", [.string("hci0"), .string("A4:C1:38:12:34:56"), .string("ATC_123456")])
        let path = try #require(added.first?.string)
        try await rig.standIn.advertise(path, rssi: -60, serviceData: ["181a": Self.pvvx(0x12, 0x34, 0x56, counter: 1)])
        let first = try await rig.broker.waitForRetained(topic) { $0.json?["temperature"] == 23.45 }
        let keys = Set(first.json?.objectValue?.keys.map { $0 } ?? []).union(["rssi", "signal", "last_seen"])
        try await rig.broker.waitForRetained("homeassistant/sensor/t2m_ble_a4c138123456/voltage/config")
        let entities = try await rig.broker.retainedMessages(under: "homeassistant/+/t2m_ble_a4c138123456/+/config").count

        for _ in 0..<3 {
            for spoof in Self.spoofs {
                try await rig.standIn.advertise(path, rssi: -60, manufacturerData: spoof.manufacturer, serviceData: spoof.service)
            }
        }
        // Its own next advert, 24.00 °C: handled after every spoof before it.
        var own = Self.pvvx(0x12, 0x34, 0x56, counter: 2)
        own[6...7] = [0x60, 0x09]
        try await rig.standIn.advertise(path, rssi: -60, serviceData: ["181a": own])
        let state = try await rig.broker.waitForRetained(topic) { $0.json?["temperature"] == 24 }
        let grown = Set(state.json?.objectValue?.keys.map { $0 } ?? []).subtracting(keys)
        #expect(grown.isEmpty, "keys the spoofs added: \(grown.sorted())")
        let after = try await rig.broker.retainedMessages(under: "homeassistant/+/t2m_ble_a4c138123456/+/config").count
        #expect(after == entities)
        guard case .array(let list)? = try await rig.broker.retainedJSON("t2m/bridge/devices") else { throw TestFailure("no devices") }
        let device = list.first { $0["id"] == "ble_a4c138123456" }
        #expect(device?["model"] == "Thermometer (pvvx firmware)" && device?["details"]?["encrypted"] == nil, "\(String(describing: device))")
        #expect(try await rig.bridge.terminate() == 0)
    }

    @Test("a BTHome sensor naming 40 quantities gets 32 sensors and keeps the rest out of its state")
    func quantityBound() async throws {
        let rig = try await BLERig.start(liveSignal: false)
        let added = try await rig.standIn.mock("AddDevice", [.string("hci0"), .string("B0:00:00:00:00:40"), .string("Many")])
        let path = try #require(added.first?.string)
        // 40 temperature objects (s8 °C), numbered temperature_1 … temperature_40.
        let objects = (0..<40).flatMap { [UInt8(0x57), UInt8($0)] }
        try await rig.standIn.advertise(path, rssi: -60, serviceData: ["fcd2": [0x40, 0x00, 0x01] + objects])
        let state = try await rig.broker.waitForRetained("t2m/ble_b00000000040") { $0.json?["temperature_1"] == 0 }
        let values = state.json?.objectValue?.keys.filter { $0.hasPrefix("temperature_") } ?? []
        #expect(values.count == 32)
        #expect(state.json?["temperature_33"] == nil)
        let configs = try await rig.broker.retainedMessages(under: "homeassistant/+/t2m_ble_b00000000040/+/config")
        #expect(configs.keys.filter { $0.contains("/temperature_") }.count == 32)
        #expect(try await rig.bridge.terminate() == 0)
    }
}
