import BLEFormats
import BridgeCore
import DBus
import Foundation
import Support
import Testing
import TestSupport

@Suite("Encrypted and vendor BLE sensors through the daemon", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker, .busMock))
struct EncryptedSensorTests {
    /// xiaomi-ble's test_Xiaomi_LYWSD03MMC_encrypted: humidity 46.7 % with this key.
    static let lywsd03mmc = hex("58585b0550f4830238c1a495ef58763c26000097e2abb5")
    static let xiaomiKey = "e9ea895fac7cca6d30532432a516f3a8"
    static let bthomeKey = "231d39c1d7cc1ab1aee224cd096db932"

    static let ble = """
          bindkeys:
            "A4:C1:38:02:83:F4": "\(xiaomiKey)"
            "54:48:E6:8F:80:A5": "\(bthomeKey)"
            "B0:00:00:00:00:09": "00112233445566778899aabbccddeeff"

        """

    func add(_ rig: BLERig, _ address: String, _ name: String) async throws -> String {
        try #require(try await rig.standIn.mock("AddDevice", [.string("hci0"), .string(address), .string(name)]).first?.string)
    }

    /// A BTHome temperature object (0.01 °C) sealed for the Shelly's address with its key.
    static func bthome(centidegrees: Int16, counter: UInt32) throws -> [UInt8] {
        let raw = UInt16(bitPattern: centidegrees)
        return try #require(
            BTHome.seal(
                [0x02, UInt8(raw & 0xFF), UInt8(raw >> 8)], sender: try BluetoothAddress("54:48:E6:8F:80:A5"),
                key: try BindKey(hex: bthomeKey), counter: counter))
    }

    @Test("a stock LYWSD03MMC with its bindkey: decrypted humidity, Home Assistant sensor, model and maker")
    func xiaomi() async throws {
        let rig = try await BLERig.start(ble: Self.ble, liveSignal: false)
        let broker = rig.broker
        let sensor = try await add(rig, "A4:C1:38:02:83:F4", "LYWSD03MMC")
        try await rig.standIn.advertise(sensor, rssi: -60, serviceData: ["fe95": Self.lywsd03mmc])
        let state = try await broker.waitForRetained("t2m/ble_a4c1380283f4") { $0.json?["humidity"] == 46.7 }
        #expect(state.json?["temperature"] == nil)
        let entity = try await broker.waitForRetained("homeassistant/sensor/t2m_ble_a4c1380283f4/humidity/config")
        #expect(entity.json?["device_class"] == "humidity" && entity.json?["unit_of_measurement"] == "%")
        let devices = try await broker.waitForRetained("t2m/bridge/devices") { message in
            guard case .array(let list)? = message.json else { return false }
            return list.contains { $0["id"] == "ble_a4c1380283f4" && $0["model"] == "LYWSD03MMC" }
        }
        guard case .array(let list)? = devices.json else { throw TestFailure("no bridge/devices") }
        #expect(list.first { $0["id"] == "ble_a4c1380283f4" }?["manufacturer"] == "Xiaomi")
        // A MiBeacon sensor whose configured key is not the one it seals with: one event, no values.
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("t2m/bridge/event")
        let other = try await add(rig, "B0:00:00:00:00:09", "LYWSD03MMC")
        let frame = try #require(
            MiBeacon.seal(
                [0x06, 0x10, 0x02, 0xD3, 0x01], sender: try BluetoothAddress("B0:00:00:00:00:09"), product: 0x055B, counter: 3,
                extended: 0, key: try BindKey(hex: Self.xiaomiKey)))
        try await rig.standIn.advertise(other, rssi: -60, serviceData: ["fe95": frame])
        let wrong = try await client.waitForMessage(topic: "t2m/bridge/event") { $0.json?["type"] == "decryption_failed" }
        #expect(wrong.json?["data"]?["problem"] == "wrong" && wrong.json?["data"]?["format"] == "xiaomi")
        #expect(wrong.json?["data"]?["id"] == "ble_b00000000009")
        #expect(try await broker.retainedJSON("t2m/ble_b00000000009")?["humidity"] == nil)
        await client.close()
        // The keys never leave the bridge: bridge/info names the addresses only.
        let info = try await broker.waitForRetained("t2m/bridge/info")
        #expect(!info.text.contains(Self.xiaomiKey) && !info.text.contains(Self.bthomeKey))
        #expect(try await rig.bridge.terminate() == 0)
        #expect(!rig.bridge.stderr.contains(Self.xiaomiKey))
    }

    @Test("encrypted BTHome: values with the key, a replayed counter dropped; a wrong or missing key one bridge/event each")
    func bthome() async throws {
        let rig = try await BLERig.start(ble: Self.ble, liveSignal: false)
        let broker = rig.broker
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("t2m/bridge/event")
        try await client.subscribe("t2m/ble_5448e68f80a5")

        let shelly = try await add(rig, "54:48:E6:8F:80:A5", "SBHT-003C")
        try await rig.standIn.advertise(shelly, rssi: -60, serviceData: ["fcd2": try Self.bthome(centidegrees: 2500, counter: 500)])
        try await broker.waitForRetained("t2m/ble_5448e68f80a5") { $0.json?["temperature"] == 25 }
        let mark = client.mark
        // An older counter (a replay) with a value far off, then a newer one as a barrier.
        try await rig.standIn.advertise(shelly, rssi: -60, serviceData: ["fcd2": try Self.bthome(centidegrees: 3000, counter: 400)])
        try await rig.standIn.advertise(shelly, rssi: -60, serviceData: ["fcd2": try Self.bthome(centidegrees: 2600, counter: 501)])
        try await client.waitForMessage(topic: "t2m/ble_5448e68f80a5", after: mark) { $0.json?["temperature"] == 26 }
        let published = client.messages(on: "t2m/ble_5448e68f80a5").filter { $0.index >= mark }
        #expect(!published.contains { $0.json?["temperature"] == 30 }, "\(published.map(\.text))")

        // A device whose key is wrong, twice: one event, and it shows as encrypted.
        let wrong = try await add(rig, "B0:00:00:00:00:09", "Locked")
        let sealed = try #require(
            BTHome.seal(
                [0x02, 0xC4, 0x09], sender: try BluetoothAddress("B0:00:00:00:00:09"),
                key: try BindKey(hex: "ffeeddccbbaa99887766554433221100"), counter: 7))
        try await rig.standIn.advertise(wrong, rssi: -60, serviceData: ["fcd2": sealed])
        let event = try await client.waitForMessage(topic: "t2m/bridge/event") {
            $0.json?["type"] == "decryption_failed" && $0.json?["data"]?["id"] == "ble_b00000000009"
        }
        #expect(event.json?["data"]?["problem"] == "wrong")
        try await rig.standIn.advertise(wrong, rssi: -61, serviceData: ["fcd2": sealed])
        try await broker.waitForRetained("t2m/bridge/devices") { message in
            guard case .array(let list)? = message.json else { return false }
            return list.contains { $0["id"] == "ble_b00000000009" && $0["details"]?["encrypted"] == true }
        }

        // A MiBeacon sensor that encrypts, with no key in the config.
        let keyless = try await add(rig, "B0:00:00:00:00:0A", "Keyless")
        let frame = try #require(
            MiBeacon.seal(
                [0x06, 0x10, 0x02, 0xD3, 0x01], sender: try BluetoothAddress("B0:00:00:00:00:0A"), product: 0x055B, counter: 1,
                extended: 0, key: try BindKey(hex: Self.xiaomiKey)))
        try await rig.standIn.advertise(keyless, rssi: -60, serviceData: ["fe95": frame])
        let missing = try await client.waitForMessage(topic: "t2m/bridge/event") {
            $0.json?["type"] == "decryption_failed" && $0.json?["data"]?["id"] == "ble_b0000000000a"
        }
        #expect(missing.json?["data"]?["problem"] == "missing" && missing.json?["data"]?["format"] == "xiaomi")
        let failures = client.messages(on: "t2m/bridge/event").filter { $0.json?["type"] == "decryption_failed" }
        #expect(failures.count == 2, "\(failures.map(\.text))")
        #expect(try await broker.retainedJSON("t2m/ble_b0000000000a")?["humidity"] == nil)
        #expect(try await rig.bridge.terminate() == 0)
        await client.close()
    }

    @Test("a SwitchBot meter and a ThermoPro whose company id carries the reading, as BlueZ accumulates ids")
    func vendors() async throws {
        let rig = try await BLERig.start(liveSignal: false)
        let broker = rig.broker
        // pySwitchbot's test_wosensor_passive_and_active.
        let meter = try await add(rig, "D7:C1:7D:5D:EB:43", "WoSensorTH")
        try await rig.standIn.advertise(
            meter, rssi: -60, manufacturerData: [0x0969: hex("d7c17d5deb43de03069835")], serviceData: ["fd3d": hex("5400e4069835")])
        let state = try await broker.waitForRetained("t2m/ble_d7c17d5deb43") { $0.json?["temperature"] == 24.6 }
        #expect(state.json?["humidity"] == 53 && state.json?["battery"] == 100)

        // pySwitchbot's test_contact_sensor_closed: contact ON (closed), which Home Assistant's door class calls off.
        let door = try await add(rig, "CB:39:CD:C4:3D:46", "WoContact")
        try await rig.standIn.advertise(
            door, rssi: -60, manufacturerData: [0x0969: hex("cb39cdc43d46898c002b001984")], serviceData: ["fd3d": hex("6440da00002b001984")])
        let contact = try await broker.waitForRetained("t2m/ble_cb39cdc43d46") { $0.json?["contact"] == "ON" }
        #expect(contact.json?["occupancy"] == "ON" && contact.json?["battery"] == 90)
        let entity = try await broker.waitForRetained("homeassistant/binary_sensor/t2m_ble_cb39cdc43d46/contact/config")
        #expect(entity.json?["device_class"] == "door")
        #expect(entity.json?["payload_on"] == "OFF" && entity.json?["payload_off"] == "ON")

        // thermopro-ble's TP357 (24.1 °C) and then TP393's bytes (24.2 °C) under a new id, both kept by BlueZ.
        let thermometer = try await add(rig, "AA:BB:CC:DD:EE:01", "TP357 (2142)")
        try await rig.standIn.advertise(thermometer, rssi: -60, manufacturerData: [0xF1C2: hex("001d022c")])
        try await broker.waitForRetained("t2m/ble_aabbccddee01") { $0.json?["temperature"] == 24.1 }
        try await rig.standIn.advertise(
            thermometer, rssi: -60, manufacturerData: [0xF1C2: hex("001d022c"), 0xF2C2: hex("0035022c")])
        let newer = try await broker.waitForRetained("t2m/ble_aabbccddee01") { $0.json?["temperature"] == 24.2 }
        #expect(newer.json?["humidity"] == 53)
        #expect(try await rig.bridge.terminate() == 0)
    }

    @Test("Govee, Oral-B, RuuviTag and Inkbird adverts: values, units and the maker's model")
    func moreVendors() async throws {
        let rig = try await BLERig.start(liveSignal: false)
        let broker = rig.broker
        // govee-ble's GVH5075_SERVICE_INFO_2.
        let govee = try await add(rig, "A4:C1:38:00:00:01", "GVH5075_DBF8")
        try await rig.standIn.advertise(govee, rssi: -60, manufacturerData: [0xEC88: hex("00034db26400")])
        let goveeState = try await broker.waitForRetained("t2m/ble_a4c138000001") { $0.json?["temperature"] == 21.6 }
        #expect(goveeState.json?["humidity"] == 49.8 && goveeState.json?["problem"] == "OFF")
        // oralb-ble's ORALB_D700.
        let brush = try await add(rig, "78:DB:2F:00:00:01", "Oral-B Toothbrush")
        try await rig.standIn.advertise(brush, rssi: -60, manufacturerData: [0x00DC: hex("04270d0332000601011404")])
        let brushState = try await broker.waitForRetained("t2m/ble_78db2f000001") { $0.json?["state"] == "running" }
        #expect(brushState.json?["brushing_time"] == 6 && brushState.json?["mode"] == "daily clean")
        #expect(brushState.json?["pressure"] == "normal" && brushState.json?["sector"] == "sector 1")
        let time = try await broker.waitForRetained("homeassistant/sensor/t2m_ble_78db2f000001/brushing_time/config")
        #expect(time.json?["unit_of_measurement"] == "s" && time.json?["device_class"] == "duration")
        // ruuvitag-ble's V5_OUTDOOR_SENSOR_DATA.
        let tag = try await add(rig, "DE:AD:7B:3F:EF:AF", "Ruuvi EFAF")
        try await rig.standIn.advertise(tag, rssi: -60, manufacturerData: [0x0499: hex("0505a060a0c89afd34028cff006376726976dead7b3fefaf")])
        let ruuvi = try await broker.waitForRetained("t2m/ble_dead7b3fefaf") { $0.json?["temperature"] == 7.2 }
        #expect(ruuvi.json?["pressure"] == 1013.54 && ruuvi.json?["acceleration_x"] == -7.02)
        let pressure = try await broker.waitForRetained("homeassistant/sensor/t2m_ble_dead7b3fefaf/pressure/config")
        #expect(pressure.json?["unit_of_measurement"] == "hPa")
        // inkbird-ble's test_sps.
        let inkbird = try await add(rig, "49:42:00:00:00:01", "sps")
        try await rig.standIn.advertise(inkbird, rssi: -60, manufacturerData: [0x07FC: hex("c71200c83d5606")])
        let ink = try await broker.waitForRetained("t2m/ble_494200000001") { $0.json?["temperature"] == 20.44 }
        #expect(ink.json?["humidity"] == 48.07 && ink.json?["battery"] == 86)
        let devices = try await broker.waitForRetained("t2m/bridge/devices") { message in
            guard case .array(let list)? = message.json else { return false }
            return list.contains { $0["id"] == "ble_494200000001" && $0["model"] == "IBS-TH" }
        }
        guard case .array(let list)? = devices.json else { throw TestFailure("no bridge/devices") }
        #expect(list.first { $0["id"] == "ble_a4c138000001" }?["model"] == "H5075")
        #expect(list.first { $0["id"] == "ble_78db2f000001" }?["manufacturer"] == "Oral-B")
        #expect(list.first { $0["id"] == "ble_dead7b3fefaf" }?["model"] == "RuuviTag")
        #expect(try await rig.bridge.terminate() == 0)
    }

    @Test("a sensor described in ble.formats appears with its values, units and the format's name as model")
    func userFormat() async throws {
        let ble = """
              formats:
                - name: acme_thermo
                  match: {manufacturer_id: 0xFFF1, prefix: "01"}
                  fields:
                    - {key: temperature, offset: 1, type: int16le, scale: 0.01, unit: "°C", device_class: temperature}
                    - {key: humidity, offset: 3, type: uint8, unit: "%", device_class: humidity}

            """
        let rig = try await BLERig.start(ble: ble, liveSignal: false)
        let broker = rig.broker
        let sensor = try await add(rig, "AC:00:00:00:00:01", "ACME")
        try await rig.standIn.advertise(sensor, rssi: -60, manufacturerData: [0xFFF1: hex("01CA0937")])
        let state = try await broker.waitForRetained("t2m/ble_ac0000000001") { $0.json?["temperature"] == 25.06 }
        #expect(state.json?["humidity"] == 55)
        let entity = try await broker.waitForRetained("homeassistant/sensor/t2m_ble_ac0000000001/temperature/config")
        #expect(entity.json?["unit_of_measurement"] == "°C" && entity.json?["device_class"] == "temperature")
        #expect(entity.json?["state_class"] == "measurement")
        let devices = try await broker.waitForRetained("t2m/bridge/devices") { message in
            guard case .array(let list)? = message.json else { return false }
            return list.contains { $0["id"] == "ble_ac0000000001" && $0["model"] == "acme_thermo" }
        }
        #expect(devices.json != nil)
        #expect(try await rig.bridge.terminate() == 0)
    }

    @Test("ble/bindkey: a device shown as encrypted gets its key at run time, and its values follow")
    func bindkeyRequest() async throws {
        let rig = try await BLERig.start(liveSignal: false)
        let broker = rig.broker
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("t2m/bridge/event")
        let sensor = try await add(rig, "A4:C1:38:02:83:F4", "LYWSD03MMC")
        try await rig.standIn.advertise(sensor, rssi: -60, serviceData: ["fe95": Self.lywsd03mmc])
        try await client.waitForMessage(topic: "t2m/bridge/event") {
            $0.json?["type"] == "decryption_failed" && $0.json?["data"]?["problem"] == "missing"
        }
        let bad = try await client.request("ble/bindkey", json: ["device": "ble_a4c1380283f4", "key": "e9ea"])
        #expect(bad["status"] == "error")
        // `device` takes a Bluetooth address as well as an id or an alias, in any case.
        let set = try await client.request("ble/bindkey", json: ["device": "a4:c1:38:02:83:F4", "key": .string(Self.xiaomiKey)])
        #expect(set["status"] == "ok" && set["data"]?["key"] == "***" && set["data"]?["address"] == "A4:C1:38:02:83:F4", "\(set)")
        #expect(!set.jsonString.contains(Self.xiaomiKey))
        // The next frame (a new frame counter) decrypts with it.
        let sealed = try #require(
            MiBeacon.seal(
                [0x06, 0x10, 0x02, 0xD3, 0x01], sender: try BluetoothAddress("A4:C1:38:02:83:F4"), product: 0x055B, counter: 0x51,
                extended: 0x26, key: try BindKey(hex: Self.xiaomiKey)))
        try await rig.standIn.advertise(sensor, rssi: -60, serviceData: ["fe95": sealed])
        try await broker.waitForRetained("t2m/ble_a4c1380283f4") { $0.json?["humidity"] == 46.7 }
        // With a working key it no longer shows as encrypted, and its model is known.
        try await broker.waitForRetained("t2m/bridge/devices") { message in
            guard case .array(let list)? = message.json else { return false }
            return list.contains { $0["id"] == "ble_a4c1380283f4" && $0["details"]?["encrypted"] == nil && $0["model"] == "LYWSD03MMC" }
        }
        #expect(try await rig.bridge.terminate() == 0)
        await client.close()
    }

    @Test("a key set with ble/bindkey is kept in the alias file and holds after a restart")
    func bindkeyKept() async throws {
        let rig = try await BLERig.start(liveSignal: false)
        let broker = rig.broker
        let client = try await TestClient.connect(to: broker)
        let set = try await client.request("ble/bindkey", json: ["address": "A4:C1:38:02:83:F4", "key": .string(Self.xiaomiKey)])
        #expect(set["status"] == "ok")
        await client.close()
        #expect(try await rig.bridge.terminate() == 0)
        let memory = try String(contentsOfFile: rig.bridge.directory.file("things2mqtt-aliases.json"), encoding: .utf8)
        #expect(memory.contains("\"drivers\"") && memory.contains("A4:C1:38:02:83:F4"))
        // The file holds the key: it is the daemon user's alone.
        #expect(try Self.mode(of: rig.bridge.directory.file("things2mqtt-aliases.json")) == 0o600)

        let restarted = try await rig.restartBridge(files: ["things2mqtt-aliases.json": memory])
        let file = restarted.directory.file("things2mqtt-aliases.json")
        let sensor = try await add(rig, "A4:C1:38:02:83:F4", "LYWSD03MMC")
        try await rig.standIn.advertise(sensor, rssi: -60, serviceData: ["fe95": Self.lywsd03mmc])
        try await broker.waitForRetained("t2m/ble_a4c1380283f4") { $0.json?["humidity"] == 46.7 }
        // One copied in readable by others is made private at start.
        #expect(try Self.mode(of: file) == 0o600)
        #expect(try await restarted.terminate() == 0)
        #expect(!restarted.stderr.contains(Self.xiaomiKey))
    }

    /// A file's permission bits.
    static func mode(of path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test("bindkeys added to the config are taken on reload, without a restart")
    func bindkeysReloaded() async throws {
        let rig = try await BLERig.start(liveSignal: false)
        let broker = rig.broker
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("t2m/bridge/event")
        let sensor = try await add(rig, "A4:C1:38:02:83:F4", "LYWSD03MMC")
        try await rig.standIn.advertise(sensor, rssi: -60, serviceData: ["fe95": Self.lywsd03mmc])
        try await client.waitForMessage(topic: "t2m/bridge/event") { $0.json?["type"] == "decryption_failed" }
        let config = try String(contentsOfFile: rig.bridge.configPath, encoding: .utf8)
        try rig.bridge.rewriteConfig(config + "  bindkeys:\n    \"A4:C1:38:02:83:F4\": \"\(Self.xiaomiKey)\"\n")
        rig.bridge.sendHUP()
        let reloaded = try await client.waitForMessage(topic: "t2m/bridge/event") { $0.json?["type"] == "config_reloaded" }
        #expect(reloaded.json?["data"]?["applied"] == ["ble"] && reloaded.json?["data"]?["restart_required"] == [])
        let sealed = try #require(
            MiBeacon.seal(
                [0x06, 0x10, 0x02, 0xD3, 0x01], sender: try BluetoothAddress("A4:C1:38:02:83:F4"), product: 0x055B, counter: 0x60,
                extended: 0x30, key: try BindKey(hex: Self.xiaomiKey)))
        try await rig.standIn.advertise(sensor, rssi: -60, serviceData: ["fe95": sealed])
        try await broker.waitForRetained("t2m/ble_a4c1380283f4") { $0.json?["humidity"] == 46.7 }
        #expect(try await rig.bridge.terminate() == 0)
        await client.close()
    }
}
