import BLEFormats
import BLEModels
import TestSupport
import Testing

@Suite("Standard GATT characteristics")
struct CharacteristicTests {
    static func decode(_ uuid: UInt16, _ bytes: [UInt8]) -> Decoded? { StandardCharacteristic.decode(BLEUUID(uuid16: uuid), bytes) }

    @Test(
        "Heart Rate Measurement: every flag combination",
        arguments: [
            ("00 48", 72, nil, nil, nil), ("01 48 00", 72, nil, nil, nil), ("01 2C 01", 300, nil, nil, nil),
            ("06 48", 72, true, nil, nil), ("04 48", 72, false, nil, nil), ("02 48", 72, nil, nil, nil),
            ("08 48 10 27", 72, nil, 10000, nil), ("10 48 00 04", 72, nil, nil, [1.0]),
            ("10 48 00 04 00 02", 72, nil, nil, [1.0, 0.5]), ("10 48 20 03", 72, nil, nil, [0.781]),
            ("1F 2C 01 10 27 00 04 20 03", 300, true, 10000, [1.0, 0.781]), ("1C 5A FF FF 01 00", 90, false, 65535, [0.001]),
            ("10 48", 72, nil, nil, nil), ("E0 48", 72, nil, nil, nil), ("00 00", 0, nil, nil, nil),
        ] as [(String, Double, Bool?, Double?, [Double]?)])
    func heartRate(value: String, bpm: Double, contact: Bool?, energy: Double?, rr: [Double]?) throws {
        let reading = try #require(Self.decode(0x2A37, hex(value))?.reading)
        #expect(reading.number("heart_rate") == bpm)
        #expect(reading["sensor_contact"] == contact.map(MeasuredValue.bool))
        #expect(reading.number("energy_expended") == energy)
        #expect(reading["rr_intervals"] == rr.map(MeasuredValue.numbers))
    }

    @Test(
        "Heart Rate Measurement: cut and overlong values are undecodable",
        arguments: [
            ("", DecodeFailure.empty), ("01 48", .truncated(at: 1)), ("08 48 10", .truncated(at: 2)), ("10 48 00", .truncated(at: 2)),
            ("10 48 00 04 00", .truncated(at: 4)), ("00 48 00", .trailingBytes(at: 2)), ("09 48 00 10", .truncated(at: 3)),
            ("08 48 10 27 00", .trailingBytes(at: 4)),
        ])
    func heartRateRefusals(value: String, failure: DecodeFailure) {
        #expect(Self.decode(0x2A37, hex(value))?.failure == failure)
    }

    @Test(
        "Battery Level, Temperature, Humidity and Temperature Celsius",
        arguments: [
            (UInt16(0x2A19), "64", "battery", 100.0), (0x2A19, "00", "battery", 0), (0x2A19, "37", "battery", 55),
            (0x2A6E, "C4 09", "temperature", 25), (0x2A6E, "38 F7", "temperature", -22.48), (0x2A6E, "FF 7F", "temperature", 327.67),
            (0x2A6F, "BF 13", "humidity", 50.55), (0x2A6F, "10 27", "humidity", 100), (0x2A6F, "00 00", "humidity", 0),
            (0x2A1F, "EA 00", "temperature", 23.4), (0x2A1F, "CD FF", "temperature", -5.1),
        ])
    func numbers(uuid: UInt16, value: String, key: String, expected: Double) throws {
        let reading = try #require(Self.decode(uuid, hex(value))?.reading)
        #expect(reading.measurements.count == 1 && reading.number(key) == expected)
    }

    @Test(
        "out-of-range, unknown and wrongly sized values are undecodable",
        arguments: [
            (UInt16(0x2A19), "65", DecodeFailure.invalidValue("battery level 101 % is above 100 %")), (0x2A19, "", .empty),
            (0x2A19, "64 00", .wrongLength(2, expected: [1])), (0x2A6E, "00 80", .notAvailable),
            (0x2A6E, "C4", .wrongLength(1, expected: [2])),
            (0x2A6F, "FF FF", .notAvailable), (0x2A6F, "11 27", .invalidValue("humidity 100.01 % is above 100 %")),
            (0x2A6F, "BF 13 00", .wrongLength(3, expected: [2])), (0x2A1F, "EA", .wrongLength(1, expected: [2])),
        ])
    func refusals(uuid: UInt16, value: String, failure: DecodeFailure) {
        #expect(Self.decode(uuid, hex(value))?.failure == failure)
    }

    @Test(
        "Device Information strings: cut at the first NUL, invalid UTF-8 replaced",
        arguments: [
            (UInt16(0x2A29), Array("Polar Electro Oy".utf8), "manufacturer", "Polar Electro Oy"),
            (0x2A24, Array("H10".utf8) + [0, 0, 0], "model", "H10"), (0x2A26, Array("3.0.56".utf8), "firmware", "3.0.56"),
            (0x2A27, [0x41, 0x00, 0x42], "hardware", "A"), (0x2A28, [0x41, 0xFF, 0x42], "software", "A\u{FFFD}B"),
            (0x2A25, Array("Wärme 1".utf8), "serial", "Wärme 1"),
        ])
    func strings(uuid: UInt16, value: [UInt8], key: String, text: String) throws {
        let reading = try #require(Self.decode(uuid, value)?.reading)
        #expect(reading[key] == .text(text))
        #expect(reading.measurements.first?.quantity.diagnostic == true)
    }

    @Test("empty and all-NUL strings, oversized values and unknown characteristics")
    func edges() {
        #expect(Self.decode(0x2A29, [])?.failure == .empty)
        #expect(Self.decode(0x2A29, [0, 0])?.failure == .invalidValue("nothing before the first NUL"))
        #expect(Self.decode(0x2A29, Array(repeating: 0x41, count: 513))?.failure == .tooLong(513))
        #expect(Self.decode(0x2A29, Array(repeating: 0x41, count: 512))?.reading != nil)
        #expect(Self.decode(0x2A00, Array("Nova".utf8)) == nil)
        #expect(StandardCharacteristic.decode(try! BLEUUID("fff3"), [1]) == nil)
        #expect(StandardCharacteristic.isKnown(BLEUUID(uuid16: 0x2A37)) && !StandardCharacteristic.isKnown(BLEUUID(uuid16: 0x2A38)))
    }
}

@Suite("GATT names and characteristic flags")
struct GATTNamesTests {
    @Test(
        "standard services, characteristics and descriptors have their SIG names; others have none",
        arguments: [
            ("180d", "Heart Rate", nil, nil), ("0000180f-0000-1000-8000-00805f9b34fb", "Battery", nil, nil),
            ("181a", "Environmental Sensing", nil, nil), ("180a", "Device Information", nil, nil),
            ("2a37", nil, "Heart Rate Measurement", nil), ("2a19", nil, "Battery Level", nil), ("2A6E", nil, "Temperature", nil),
            ("2a6f", nil, "Humidity", nil), ("2a1f", nil, "Temperature Celsius", nil), ("2a29", nil, "Manufacturer Name String", nil),
            ("2902", nil, nil, "Client Characteristic Configuration"), ("fff0", nil, nil, nil),
            ("6e400001-b5a3-f393-e0a9-e50e24dcca9e", nil, nil, nil), ("0001180d-0000-1000-8000-00805f9b34fb", nil, nil, nil),
        ] as [(String, String?, String?, String?)])
    func names(uuid: String, service: String?, characteristic: String?, descriptor: String?) throws {
        let parsed = try BLEUUID(uuid)
        #expect(GATTNames.service(parsed) == service)
        #expect(GATTNames.characteristic(parsed) == characteristic)
        #expect(GATTNames.descriptor(parsed) == descriptor)
    }

    @Test("BlueZ's flag names parse into what a characteristic allows; unknown names are left out")
    func flags() {
        let flags = CharacteristicFlags(bluez: ["notify", "read", "future-flag", "encrypt-read"])
        #expect(flags == [.read, .notify, .encryptRead])
        #expect(flags.names == ["read", "notify", "encrypt-read"])
        #expect(flags.canRead && flags.canNotify && !flags.canWrite && !flags.canWriteWithoutResponse)
        #expect(CharacteristicFlags(bluez: ["indicate"]).canNotify)
        #expect(CharacteristicFlags(bluez: ["write-without-response"]).canWriteWithoutResponse)
        #expect(CharacteristicFlags(bluez: []).names.isEmpty)
        let all = CharacteristicFlags(bluez: CharacteristicFlags(rawValue: UInt32.max).names)
        #expect(all.names.count == 23 && CharacteristicFlags(bluez: all.names) == all)
    }
}
