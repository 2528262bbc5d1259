import BLEFormats
import BridgeCore
import DBus
import Foundation
import Testing
import TestSupport

@Suite("Passive BLE sensors from their adverts, through the daemon", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker, .busMock))
struct PassiveSensorTests {
    static let pvvx: [UInt8] = [0x56, 0x34, 0x12, 0x38, 0xC1, 0xA4, 0x29, 0x09, 0xD7, 0x11, 0x86, 0x0B, 0x55, 0x12, 0x05]

    /// A BTHome v2 payload: packet id, temperature in 0.01 °C, humidity 50.55 %.
    static func bthome(packet: UInt8, centidegrees: Int16) -> [UInt8] {
        let raw = UInt16(bitPattern: centidegrees)
        return [0x40, 0x00, packet, 0x02, UInt8(raw & 0xFF), UInt8(raw >> 8), 0x03, 0xBF, 0x13]
    }

    func add(_ rig: BLERig, _ address: String, _ name: String) async throws -> String {
        try #require(try await rig.standIn.mock("AddDevice", [.string("hci0"), .string(address), .string(name)]).first?.string)
    }

    @Test("pvvx, atc-style and BTHome sensors appear with decoded sensors; encrypted BTHome is shown, not decoded; beacons stay out")
    func formats() async throws {
        let rig = try await BLERig.start()
        let broker = rig.broker
        let thermometer = try await add(rig, "A4:C1:38:12:34:56", "ATC_123456")
        try await rig.standIn.advertise(thermometer, rssi: -60, serviceData: ["181a": Self.pvvx])
        let state = try await broker.waitForRetained("t2m/ble_a4c138123456") { $0.json?["temperature"] == 23.45 }
        #expect(state.json?["humidity"] == 45.67)
        #expect(state.json?["battery"] == 85)
        #expect(state.json?["voltage"] == 2.95)
        let sensor = try await broker.waitForRetained("homeassistant/sensor/t2m_ble_a4c138123456/temperature/config")
        #expect(sensor.json?["device_class"] == "temperature")
        #expect(sensor.json?["unit_of_measurement"] == "°C")
        let battery = try await broker.waitForRetained("homeassistant/sensor/t2m_ble_a4c138123456/battery/config")
        #expect(battery.json?["entity_category"] == "diagnostic")

        let button = try await add(rig, "B0:00:00:00:00:01", "SBBT-002C")
        try await rig.standIn.advertise(button, rssi: -60, serviceData: ["fcd2": Self.bthome(packet: 5, centidegrees: 2500)])
        let bthome = try await broker.waitForRetained("t2m/ble_b00000000001") { $0.json?["temperature"] == 25 }
        #expect(bthome.json?["humidity"] == 50.55)

        let secret = try await add(rig, "B0:00:00:00:00:02", "Locked")
        let sealed: [UInt8] = [0x41, 0xA4, 0x72, 0x66, 0xC2, 0x88, 0xA1, 0xEC, 0x1D, 0x02, 0xB2, 0x03, 0x00, 0x4D, 0x4C, 0x59, 0x6E]
        try await rig.standIn.advertise(secret, rssi: -60, serviceData: ["fcd2": sealed])
        let devices = try await broker.waitForRetained("t2m/bridge/devices") { message in
            guard case .array(let list)? = message.json else { return false }
            return list.contains { $0["id"] == "ble_b00000000002" && $0["details"]?["encrypted"] == true }
        }
        guard case .array(let list)? = devices.json else { throw TestFailure("no bridge/devices") }
        #expect(list.first { $0["id"] == "ble_a4c138123456" }?["model"] == "Thermometer (pvvx firmware)")
        #expect(try await broker.retainedJSON("t2m/ble_b00000000002")?["temperature"] == nil)

        // iBeacon is not among the default formats, and a continuity advert is no beacon at all.
        let beacon = try await add(rig, "C0:00:00:00:00:01", "Beacon")
        let ibeacon: [UInt8] = [0x02, 0x15] + Array(repeating: 0x11, count: 16) + [0x00, 0x01, 0x00, 0x02, 0xC5]
        try await rig.standIn.advertise(beacon, rssi: -60, manufacturerData: [0x004C: ibeacon])
        let phone = try await add(rig, "C0:00:00:00:00:02", "Phone")
        try await rig.standIn.advertise(phone, rssi: -60, manufacturerData: [0x004C: [0x10, 0x05, 0x01, 0x18, 0x44, 0x00, 0x00]])
        try await broker.waitForRetained("t2m/bridge/info") { $0.json?["integrations"]?["ble"]?["ignored_devices"] == 2 }
        #expect(try await broker.retained("t2m/ble_c00000000001") == nil)
        #expect(try await rig.bridge.terminate() == 0)
    }

    @Test("a chatty sensor publishes only real changes: small moves, repeats of a packet id and a steady RSSI publish nothing")
    func throttled() async throws {
        let rig = try await BLERig.start(liveSignal: false)
        let broker = rig.broker
        let sensor = try await add(rig, "B0:00:00:00:00:03", "Chatty")
        try await rig.standIn.advertise(sensor, rssi: -60, serviceData: ["fcd2": Self.bthome(packet: 1, centidegrees: 2500)])
        try await broker.waitForRetained("t2m/ble_b00000000003") { $0.json?["temperature"] == 25 && $0.json?["status"] == "available" }
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("t2m/ble_b00000000003")
        let mark = client.mark
        // Twelve adverts: temperature jitters by up to 0.03 °C (under the 0.1 °C threshold), RSSI steady, and
        // every fourth one repeats the previous packet id with a value far off (a repeat is dropped).
        // They go out in one series, as a sender repeats itself within milliseconds: a sender silent for
        // seconds may have restarted its count, and its next id is then taken as new whatever it is.
        // With the barrier below they stay under the 128 adverts the bridge holds per device while it is busy: past
        // that the oldest give way, and a repeat whose original gave way is rightly taken as new.
        let series = (2...13).map { index in
            let repeated = index % 4 == 0
            return Self.bthome(packet: UInt8(repeated ? index - 1 : index), centidegrees: repeated ? 3000 : Int16(2500 + index % 4))
        }
        try await rig.standIn.mock(
            "AdvertiseServiceDataSeries", [.string(sensor), .int16(-60), .string("fcd2"), .array("ay", series.map(DBusValue.bytes))])
        // A real change, as a barrier: every advert before it has been handled once it is published.
        try await rig.standIn.advertise(sensor, rssi: -60, serviceData: ["fcd2": Self.bthome(packet: 14, centidegrees: 2550)])
        try await client.waitForMessage(topic: "t2m/ble_b00000000003", after: mark) { $0.json?["temperature"] == 25.5 }
        let published = client.messages(on: "t2m/ble_b00000000003").filter { $0.index >= mark && !$0.retained }
        #expect(published.count == 1, "\(published.map(\.text))")
        #expect(try await rig.bridge.terminate() == 0)
        await client.close()
    }

    @Test("a BTHome remote's presses and turns are events: each published once, not retained, never in the state, with event entities")
    func buttonEvents() async throws {
        let rig = try await BLERig.start(liveSignal: false)
        let broker = rig.broker
        let remote = try await add(rig, "B0:00:00:00:00:04", "SBBT-002C")
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("t2m/ble_b00000000004/event")
        // Packet 1: battery 90 % and a press; packet 2 repeats packet 1 (dropped); packet 3: a dimmer turn by 4 steps.
        try await rig.standIn.advertise(remote, rssi: -60, serviceData: ["fcd2": [0x44, 0x00, 0x01, 0x01, 0x5A, 0x3A, 0x01]])
        let press = try await client.waitForMessage(topic: "t2m/ble_b00000000004/event")
        #expect(!press.retained)
        #expect(press.json == ["event_type": "press", "property": "button", "action": "button_press"])
        try await rig.standIn.advertise(remote, rssi: -60, serviceData: ["fcd2": [0x44, 0x00, 0x01, 0x01, 0x5A, 0x3A, 0x02]])
        try await rig.standIn.advertise(remote, rssi: -60, serviceData: ["fcd2": [0x44, 0x00, 0x03, 0x3C, 0x01, 0x04]])
        let turn = try await client.waitForMessage(topic: "t2m/ble_b00000000004/event", after: press.index + 1)
        #expect(turn.json == ["event_type": "rotate_left", "property": "dimmer", "action": "dimmer_rotate_left", "steps": 4])
        #expect(client.messages(on: "t2m/ble_b00000000004/event").count == 2)

        let state = try #require(try await broker.retainedJSON("t2m/ble_b00000000004"))
        #expect(state["battery"] == 90)
        #expect(state["button"] == nil && state["dimmer"] == nil)
        #expect(try await broker.retainedMessages(under: "t2m/ble_b00000000004/event").isEmpty)
        let button = try await broker.waitForRetained("homeassistant/event/t2m_ble_b00000000004/button/config")
        #expect(button.json?["device_class"] == "button")
        #expect(button.json?["event_types"] == .array(BTHomeEvents.button.map { .string($0.name) }))
        #expect(button.json?["state_topic"] == "t2m/ble_b00000000004/event")
        let dimmer = try await broker.waitForRetained("homeassistant/event/t2m_ble_b00000000004/dimmer/config")
        #expect(dimmer.json?["event_types"] == ["rotate_left", "rotate_right"])
        #expect(try await rig.bridge.terminate() == 0)
        await client.close()
    }

    @Test("a remote's buttons have their entities from an advert without a press, so Home Assistant hears the first one")
    func quietButtons() async throws {
        let rig = try await BLERig.start(liveSignal: false)
        let broker = rig.broker
        let remote = try await add(rig, "B0:00:00:00:00:05", "SBBT-004")
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("t2m/ble_b00000000005/event")
        // Packet 1: battery and two buttons, neither pressed.
        try await rig.standIn.advertise(remote, rssi: -60, serviceData: ["fcd2": [0x44, 0x00, 0x01, 0x01, 0x5A, 0x3A, 0x00, 0x3A, 0x00]])
        for key in ["button_1", "button_2"] {
            let entity = try await broker.waitForRetained("homeassistant/event/t2m_ble_b00000000005/\(key)/config")
            #expect(entity.json?["device_class"] == "button", "\(key)")
        }
        // Packet 2: the second button pressed; the entities stay as they were.
        try await rig.standIn.advertise(remote, rssi: -60, serviceData: ["fcd2": [0x44, 0x00, 0x02, 0x01, 0x5A, 0x3A, 0x00, 0x3A, 0x01]])
        let press = try await client.waitForMessage(topic: "t2m/ble_b00000000005/event")
        #expect(press.json == ["event_type": "press", "property": "button_2", "action": "button_2_press"])
        #expect(client.messages(on: "t2m/ble_b00000000005/event").count == 1)
        #expect(try await broker.retainedMessages(under: "homeassistant/event/t2m_ble_b00000000005/#").count == 2)
        #expect(try await rig.bridge.terminate() == 0)
        await client.close()
    }

    @Test("a remote's presses sent faster than they are handled each come once, in order, repeats of a packet id dropped")
    func pressSeries() async throws {
        let rig = try await BLERig.start(liveSignal: false)
        let remote = try await add(rig, "B0:00:00:00:00:06", "SBBT-002C")
        let client = try await TestClient.connect(to: rig.broker)
        try await client.subscribe("t2m/ble_b00000000006/event")
        // Packets 1–40 in one series, each sent twice as a remote repeats itself: odd ids a press, even a double press.
        let presses = (1...40).map { id in [UInt8(0x44), 0x00, UInt8(id), 0x3A, id % 2 == 1 ? 0x01 : 0x02] }
        let series = presses.flatMap { [$0, $0] }
        try await rig.standIn.mock(
            "AdvertiseServiceDataSeries", [.string(remote), .int16(-60), .string("fcd2"), .array("ay", series.map(DBusValue.bytes))])
        try await waitUntil("40 events", timeout: .seconds(20)) { client.messages(on: "t2m/ble_b00000000006/event").count >= 40 }
        // A press after the series, as a barrier: every advert before it has been handled once it is published.
        try await rig.standIn.advertise(remote, rssi: -60, serviceData: ["fcd2": [0x44, 0x00, 41, 0x3A, 0x04]])
        try await waitUntil("the barrier") {
            client.messages(on: "t2m/ble_b00000000006/event").contains { $0.json?["action"] == "button_long_press" }
        }
        let actions = client.messages(on: "t2m/ble_b00000000006/event").compactMap { $0.json?["action"]?.stringValue }
        let expected = (1...40).map { $0 % 2 == 1 ? "button_press" : "button_double_press" } + ["button_long_press"]
        #expect(actions == expected)
        #expect(try await rig.bridge.terminate() == 0)
        await client.close()
    }
}

@Suite("iBeacons through the daemon", .tags(.integration, .process), .timeLimit(.minutes(1)), .needs(.broker, .busMock))
struct IBeaconTests {
    @Test("an iBeacon's estimated distance appears, and follows its RSSI while its data never change")
    func distanceFollowsRSSI() async throws {
        let rig = try await BLERig.start(ble: "  passive: [ibeacon]\n")
        let broker = rig.broker
        let beacon = try await PassiveSensorTests().add(rig, "C0:00:00:00:00:01", "Beacon")
        // Calibrated −59 dBm at 1 m.
        let ibeacon: [UInt8] = [0x02, 0x15] + Array(repeating: 0x11, count: 16) + [0x00, 0x01, 0x00, 0x02, 0xC5]
        try await rig.standIn.advertise(beacon, rssi: -59, manufacturerData: [0x004C: ibeacon])
        let first = try await broker.waitForRetained("t2m/ble_c00000000001") { $0.json?["major"] == 1 && $0.json?["rssi"] == -59 }
        #expect(first.json?["estimated_distance"] == 1, "\(first)")
        // BlueZ sends only what changed: the same data again is an RSSI alone. 20 dB further: 10 m.
        try await rig.standIn.advertise(beacon, rssi: -79)
        try await broker.waitForRetained("t2m/ble_c00000000001") { $0.json?["estimated_distance"] == 10 }
        #expect(try await rig.bridge.terminate() == 0)
    }
}
