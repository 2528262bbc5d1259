import BLEFormats
import BridgeCore
import TestSupport
import Testing

/// SwitchBot adverts from pySwitchbot's `tests/test_adv_parser.py` (sblibs/pySwitchbot), by test name: service
/// data `FD3D`, manufacturer data `0969`, the model and the values the test expects.
@Suite("SwitchBot sensors")
struct SwitchBotTests {
    static let vectors: [(String, String, String?, String, [String: JSONValue])] = [
        (
            "test_wosensor_passive_and_active", "5400e4069835", "d7c17d5deb43de03069835", "Meter",
            ["battery": 100, "temperature": 24.6, "humidity": 53]
        ),
        ("test_wosensor_active", "5400e4069835", nil, "Meter", ["battery": 100, "temperature": 24.6, "humidity": 53]),
        (
            "test_woiosensor_passive_and_active", "7700e4", "aabbccddeeffe00f06983500", "Indoor/Outdoor Meter",
            ["battery": 100, "temperature": 24.6, "humidity": 53]
        ),
        (
            "test_meter_pro_active", "340064", "b0e9fe52dd84066408972c0005", "Meter Pro",
            ["battery": 100, "temperature": 23.8, "humidity": 44]
        ),
        (
            "test_meter_pro_c_active", "350064", "b0e9fe543215b7e4079ba4003702d500", "Meter Pro CO2",
            ["battery": 100, "temperature": 27.7, "humidity": 36, "co2": 725]
        ),
        (
            "test_meter_pro_c_co2_out_of_range_dropped", "350064", "b0e9fe543215b7e4079ba400379c4000", "Meter Pro CO2",
            ["battery": 100, "temperature": 27.7, "humidity": 36]
        ),
        (
            "test_wohub2_passive_and_active", "7600", "aabbccddeeff00ff66541af182079a3200", "Hub 2",
            ["temperature": 26.7, "humidity": 50, "light_level": 2]
        ),
        (
            "test_contact_sensor_mfr", "6400da040046018fc4", "cb39cdc43d46412c0046018fc4", "Contact Sensor",
            ["battery": 90, "occupancy": "OFF", "contact": "OFF", "light_detected": "OFF"]
        ),
        (
            "test_contact_sensor_closed", "6440da00002b001984", "cb39cdc43d46898c002b001984", "Contact Sensor",
            ["battery": 90, "occupancy": "ON", "contact": "ON", "light_detected": "OFF"]
        ),
        (
            "test_contact_sensor_srv", "6400da040046018fc4", nil, "Contact Sensor",
            ["battery": 90, "occupancy": "OFF", "contact": "OFF", "light_detected": "OFF"]
        ),
        (
            "test_motion_sensor_motion", "7340e2003801", "c0219ae8bc49695c0038", "Motion Sensor",
            ["battery": 98, "occupancy": "ON", "light_detected": "OFF"]
        ),
        (
            "test_motion_with_light_detected", "7340e2002c02", "c0219ae8bc49766c002c", "Motion Sensor",
            ["battery": 98, "occupancy": "ON", "light_detected": "ON"]
        ),
        (
            "test_leak_leak_detected", "260064", "c43430374c7a4764f96761c4083c0500000000", "Leak Detector",
            ["water_leak": "ON", "tamper": "OFF", "battery": 100, "battery_low": "OFF"]
        ),
        (
            "test_leak_active", "26004e", "c43430374c7a184e98675e94513c0500000000", "Leak Detector",
            ["water_leak": "OFF", "tamper": "OFF", "battery": 78, "battery_low": "OFF"]
        ),
    ]

    @Test("each test's advert gives its values and model", arguments: 0..<vectors.count)
    func vector(index: Int) throws {
        let (name, service, maker, model, state) = Self.vectors[index]
        let reading = try #require(SwitchBot.decode(serviceData: hex(service), manufacturerData: maker.map(hex))?.reading)
        #expect(reading.state == state, "\(name)")
        #expect(reading.model == SensorModel(manufacturer: "SwitchBot", model: model), "\(name)")
    }

    @Test("no service data, or a model that is no sensor (a Bot, 'H'), gives no result; an all-zero meter no values")
    func notSensors() {
        #expect(SwitchBot.decode(serviceData: nil, manufacturerData: hex("d7c17d5deb43de03069835")) == nil)
        #expect(SwitchBot.decode(serviceData: hex("4800e4"), manufacturerData: nil) == nil)
        // test_wosensor_active_zero_data: a meter that has not measured yet.
        #expect(SwitchBot.decode(serviceData: hex("540000000000"), manufacturerData: nil)?.reading?.state == ["battery": 0])
    }
}

/// Govee adverts from govee-ble's `tests/test_parser.py` (Bluetooth-Devices/govee-ble), by its constant's name.
@Suite("Govee thermo-hygrometers")
struct GoveeTests {
    static let vectors: [(String, UInt16, String, String, String, [String: JSONValue])] = [
        ("GVH5075_SERVICE_INFO_2", 0xEC88, "00034db26400", "GVH5075_DBF8", "H5075", ["temperature": 21.6, "humidity": 49.8, "battery": 100, "problem": "OFF"]),
        ("GVH5075_SERVICE_INFO_OTHER_VALUES", 0xEC88, "00030fc93500", "GVH5075_2762", "H5075", ["temperature": 20, "humidity": 64.9, "battery": 53, "problem": "OFF"]),
        ("GVH5075_SERVICE_INFO_NEGATIVE_VALUES", 0xEC88, "00bc00043e27", "GVH5075_2762", "H5075", ["battery": 62, "problem": "ON"]),
        ("GVH5074_SERVICE_INFO", 0xEC88, "00e609bc126402", "Govee_H5074_5FF4", "H5074", ["temperature": 25.34, "humidity": 47.96, "battery": 100]),
        ("GVH5051_SERVICE_INFO", 0xEC88, "00ba0af90f63020101", "", "H5051", ["temperature": 27.46, "humidity": 40.89, "battery": 99]),
        ("GVH5071_SERVICE_INFO", 0xEC88, "00210ab61218c80001", "Govee_H5071_FD12", "H5071", ["temperature": 25.93, "humidity": 47.9, "battery": 24]),
        ("GVH5052_SERVICE_INFO", 0xEC88, "001c01a7143b000002", "Govee_H5052_E81B", "H5052", ["temperature": 2.84, "humidity": 52.87, "battery": 59]),
        ("GVH5100_SERVICE_INFO", 0x0001, "010103465464", "GVH5100_7738", "H5100", ["temperature": 21.4, "humidity": 61.2, "battery": 100, "problem": "OFF"]),
        ("test_gvh5110_3", 0x0001, "010182f7fd64", "GVH5110_4A33", "H5110", ["temperature": -19.4, "humidity": 55.7, "battery": 100, "problem": "OFF"]),
        ("GVH5105_SERVICE_INFO_2", 0x0001, "010103325e64", "GVH5105_7336", "H5105", ["temperature": 20.9, "humidity": 50.2, "battery": 100, "problem": "OFF"]),
        ("GVH5108_SERVICE_INFO", 0x0001, "010103c730640000", "GV51085242", "H5108", ["temperature": 24.7, "humidity": 60, "battery": 100, "problem": "OFF"]),
        ("GVH5108_SERVICE_INFO_ERROR", 0x0001, "010103c730e40000", "GV51085242", "H5108", ["battery": 100, "problem": "ON"]),
        ("GVH5179_SERVICE_INFO", 0x8801, "ec0001010a0aa40664", "Govee_H5179_3CD5", "H5179", ["temperature": 25.7, "humidity": 17, "battery": 100]),
    ]

    @Test("each constant's advert gives the values its test expects", arguments: 0..<vectors.count)
    func vector(index: Int) throws {
        let (name, company, data, localName, model, state) = Self.vectors[index]
        let reading = try #require(Govee.decode(company: company, hex(data), name: localName)?.reading, "\(name)")
        #expect(reading.state == state, "\(name)")
        #expect(reading.model?.model == model, "\(name)")
    }

    @Test("company 0001 needs a Govee name; the H5106 air monitor and other lengths are not read here")
    func notGovee() {
        #expect(Govee.decode(company: 0x0001, hex("010103465464"), name: "Phone") == nil)
        #expect(Govee.decode(company: 0x0001, hex("01010ed13298"), name: "GVH5106_4E05") == nil)
        #expect(Govee.decode(company: 0xEC88, hex("0003"), name: "GVH5075_DBF8") == nil)
    }
}

/// RuuviTag vectors from ruuvitag-ble's `tests/test_v5.py` and `tests/test_v3.py` (Bluetooth-Devices/ruuvitag-ble).
@Suite("RuuviTag data formats 5 and 3")
struct RuuviTests {
    @Test("format 5, V5_OUTDOOR_SENSOR_DATA")
    func format5() throws {
        let reading = try #require(Ruuvi.decode(hex("0505a060a0c89afd34028cff006376726976dead7b3fefaf")).reading)
        #expect(
            reading.state == [
                "temperature": 7.2, "humidity": 61.84, "pressure": 1013.54, "acceleration_x": -7.02, "acceleration_y": 6.39,
                "acceleration_z": -2.51, "voltage": 2.395, "tx_power": 4, "movement_counter": 114, "sequence": 26998,
            ])
        #expect(reading.packetID == UInt8(26998 & 0xFF))
        let invalid = try #require(Ruuvi.decode(hex("0505a060a0c89a8000028cff006376726976dead7b3fefaf")).reading)
        #expect(invalid["acceleration_x"] == nil && invalid["acceleration_y"] != nil)
    }

    @Test("format 3, V3_SENSOR_DATA and V3_SENSOR_DATA_SUBZERO")
    func format3() throws {
        let reading = try #require(Ruuvi.decode(hex("03b20c1fca20007a002603d0088f")).reading)
        #expect(
            reading.state == [
                "temperature": 12.31, "humidity": 89, "pressure": 1017.44, "acceleration_x": 1.2, "acceleration_y": 0.37,
                "acceleration_z": 9.57, "voltage": 2.191,
            ])
        #expect(Ruuvi.decode(hex("03b28145ca20007a002603d0088f")).reading?.number("temperature") == -1.69)
        #expect(Ruuvi.decode(hex("0505a0")).failure == .wrongLength(3, expected: [24]))
        #expect(Ruuvi.decode(hex("e1")).failure == .unknownFrame(0xE1))
    }
}

/// Oral-B adverts from oralb-ble's `tests/test_parser.py` (Bluetooth-Devices/oralb-ble).
@Suite("Oral-B toothbrushes")
struct OralBTests {
    static let vectors: [(String, String, [String: JSONValue])] = [
        (
            "04270d0332000601011404", "Smart Series D700",
            ["state": "running", "pressure": "normal", "brushing_time": 6, "mode": "daily clean", "sector": "sector 1"]
        ),
        (
            "0201080220000001010004", "Triumph D36",
            ["state": "idle", "pressure": "normal", "brushing_time": 0, "mode": "daily clean", "sector": "no sector"]
        ),
        (
            "03220c03c0013007043c04", "Genius Series D701",
            ["state": "running", "pressure": "high", "brushing_time": 108, "mode": "turbo", "sector": "sector 4"]
        ),
        (
            "06326b0272000001010004", "IO Series",
            ["state": "idle", "pressure": "normal", "brushing_time": 0, "mode": "sensitive", "sector": "no sector"]
        ),
    ]

    @Test("state, pressure, time, mode and sector", arguments: 0..<vectors.count)
    func vector(index: Int) throws {
        let (data, model, state) = Self.vectors[index]
        let reading = try #require(OralB.decode(hex(data)).reading)
        #expect(reading.state == state)
        #expect(reading.model == SensorModel(manufacturer: "Oral-B", model: model))
        #expect(OralB.decode(Array(hex(data).prefix(10))).failure != nil)
    }
}

/// ThermoPro and Inkbird, whose company id carries data: vectors from thermopro-ble's and inkbird-ble's
/// `tests/test_parser.py` (Bluetooth-Devices).
@Suite("ThermoPro and Inkbird")
struct CompanyIDDataTests {
    @Test("TP357, TP357S and TP393: the id's high byte is the temperature's low byte")
    func thermoPro() throws {
        let tp357 = try #require(ThermoPro.decode(company: 0xF1C2, hex("001d022c"), name: "TP357 (2142)").reading)
        #expect(tp357.state == ["temperature": 24.1, "humidity": 29, "battery": 100])
        #expect(tp357.model == SensorModel(manufacturer: "ThermoPro", model: "TP357"))
        let tp357s = try #require(ThermoPro.decode(company: 0xEEC2, hex("0029220b01"), name: "TP357S (2142)").reading)
        #expect(tp357s.state == ["temperature": 23.8, "humidity": 41, "battery": 100])
        let tp393 = try #require(ThermoPro.decode(company: 0xF2C2, hex("0035022c"), name: "TP393 (9376)").reading)
        #expect(tp393.state == ["temperature": 24.2, "humidity": 53, "battery": 100])
        #expect(ThermoPro.matches(name: "TP357S (2142)") && !ThermoPro.matches(name: "TP96"))
    }

    @Test("IBS-TH (test_sps)")
    func inkbird() throws {
        let reading = try #require(Inkbird.decode(company: 0x07FC, hex("c71200c83d5606"), name: "sps").reading)
        #expect(reading.state == ["temperature": 20.44, "humidity": 48.07, "battery": 86])
        #expect(reading.model == SensorModel(manufacturer: "Inkbird", model: "IBS-TH"))
        #expect(Inkbird.decode(company: 0x07FC, hex("c712"), name: "sps").failure != nil)
    }

    @Test("of BlueZ's accumulated ids, the one that changed last is decoded")
    func latestID() throws {
        let advert = Advert(
            manufacturerData: [0xF1C2: hex("001d022c"), 0xF2C2: hex("0035022c")], name: "TP357 (2142)", latestManufacturer: 0xF2C2)
        let results = PassiveDecoder.decode(advert, formats: [.thermopro])
        #expect(results.first?.decoded.reading?.number("temperature") == 24.2)
        let unknown = Advert(manufacturerData: [0xF1C2: hex("001d022c"), 0xF2C2: hex("0035022c")], name: "TP357 (2142)")
        #expect(PassiveDecoder.decode(unknown, formats: [.thermopro]).isEmpty, "with two ids and none known to be newer")
    }
}
