import BLEFormats
import BLEModels
import TestSupport
import Testing
import Support

@Suite("Xiaomi custom firmware adverts (atc1441 and pvvx)")
struct XiaomiCustomTests {
    static let sender = try! BluetoothAddress("A4:C1:38:12:34:56")

    @Test(
        "pvvx: reversed MAC, little-endian, 0.01 °C and 0.01 %",
        arguments: [
            ("56 34 12 38 C1 A4 29 09 D7 11 86 0B 55 12 05", 23.45, 45.67, 85.0, 2.95, UInt8(0x12)),
            ("56 34 12 38 C1 A4 00 FE 10 27 D0 07 00 FF 00", -5.12, 100.0, 0.0, 2.0, 0xFF),
        ])
    func pvvx(payload: String, temperature: Double, humidity: Double, battery: Double, volts: Double, counter: UInt8) throws {
        let reading = try #require(XiaomiCustom.decodePVVX(hex(payload), sender: Self.sender).reading)
        #expect(reading.measurements.map(\.key) == ["temperature", "humidity", "battery", "voltage"])
        #expect(reading.number("temperature") == temperature && reading.number("humidity") == humidity)
        #expect(reading.number("battery") == battery && reading.number("voltage") == volts)
        #expect(reading.packetID == counter)
    }

    @Test(
        "atc1441: MAC in order, big-endian, 0.1 °C and whole %",
        arguments: [
            ("A4 C1 38 12 34 56 00 EA 2D 55 0B 86 12", 23.4, 45.0, 85.0, 2.95, UInt8(0x12)),
            ("A4 C1 38 12 34 56 FF CD 64 00 0A F0 00", -5.1, 100.0, 0.0, 2.8, 0),
        ])
    func atc(payload: String, temperature: Double, humidity: Double, battery: Double, volts: Double, counter: UInt8) throws {
        let reading = try #require(XiaomiCustom.decodeATC(hex(payload), sender: Self.sender).reading)
        #expect(reading.number("temperature") == temperature && reading.number("humidity") == humidity)
        #expect(reading.number("battery") == battery && reading.number("voltage") == volts)
        #expect(reading.packetID == counter)
        #expect(XiaomiCustom.decodeATC(hex(payload)).reading == reading)
    }

    @Test("wrong lengths, another sender's MAC and impossible percentages are undecodable")
    func refusals() throws {
        let pvvx = hex("56 34 12 38 C1 A4 29 09 D7 11 86 0B 55 12 05")
        let atc = hex("A4 C1 38 12 34 56 00 EA 2D 55 0B 86 12")
        #expect(XiaomiCustom.decodePVVX(Array(pvvx.dropLast())).failure == .wrongLength(14, expected: [15]))
        #expect(XiaomiCustom.decodePVVX(pvvx + [0]).failure == .wrongLength(16, expected: [15]))
        #expect(XiaomiCustom.decodeATC(Array(atc.dropLast())).failure == .wrongLength(12, expected: [13]))
        #expect(XiaomiCustom.decodeATC([]).failure == .empty)
        let other = try BluetoothAddress("A4:C1:38:00:00:01")
        #expect(XiaomiCustom.decodePVVX(pvvx, sender: other).failure == .addressMismatch(Self.sender))
        #expect(XiaomiCustom.decodeATC(atc, sender: other).failure == .addressMismatch(Self.sender))
        // The pvvx MAC is reversed: read in atc order it names another device.
        #expect(XiaomiCustom.decodePVVX(hex("A4 C1 38 12 34 56 29 09 D7 11 86 0B 55 12 05"), sender: Self.sender).failure != nil)
        var wet = pvvx
        wet[8] = 0x11
        wet[9] = 0x27
        #expect(XiaomiCustom.decodePVVX(wet).failure == .invalidValue("humidity 100.01 % is above 100 %"))
        var full = atc
        full[9] = 101
        #expect(XiaomiCustom.decodeATC(full).failure == .invalidValue("battery 101.0 % is above 100 %"))
    }
}

@Suite("iBeacon")
struct IBeaconTests {
    static let beacon = "02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02 C5"

    @Test("uuid, major, minor and tx power, big-endian")
    func decodes() throws {
        let reading = try #require(IBeacon.decode(hex(Self.beacon))?.reading)
        #expect(reading["uuid"] == .text("e2c56db5-dffb-48d2-b060-d0f5a71096e0"))
        #expect(reading.number("major") == 1 && reading.number("minor") == 2 && reading.number("tx_power") == -59)
        #expect(reading["estimated_distance"] == nil)
        let other = try #require(IBeacon.decode(hex("02 15 00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF FF FE 80 01 B3"))?.reading)
        #expect(other["uuid"] == .text("00112233-4455-6677-8899-aabbccddeeff"))
        #expect(other.number("major") == 65534 && other.number("minor") == 32769 && other.number("tx_power") == -77)
    }

    @Test(
        "distance from RSSI by the log-distance model (n = 2)",
        arguments: [(-59, 1.0), (-79, 10.0), (-65, 2.0), (-69, 3.16), (-49, 0.32), (-99, 100.0), (127, nil), (-128, nil)]
            as [(Int, Double?)])
    func distance(rssi: Int, metres: Double?) {
        #expect(IBeacon.decode(hex(Self.beacon), rssi: rssi)?.reading?.number("estimated_distance") == metres)
        #expect(IBeacon.estimatedDistance(rssi: -60, txPower: 0) == nil)
        #expect(IBeacon.estimatedDistance(rssi: -79, txPower: -59, pathLossExponent: 4) == 3.16)
    }

    @Test(
        "Apple continuity adverts (other types) are not iBeacons at all",
        arguments: [
            "10 05 01 18 44 C3 0A", "0C 0E 00 8D 2F 5A 1B 9C 3E 44 91 10 7B 4C", "07 19 01 0E 20 75 AA 99 01 00 04",
            "12 19 10 5A 1B 9C 3E 44 91 10 7B 4C 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00", "09 06 03 0E C0 A8 01 1E", "",
        ])
    func continuity(payload: String) {
        #expect(IBeacon.decode(hex(payload)) == nil)
    }

    @Test("a type 02 payload of the wrong shape is undecodable")
    func malformed() {
        let beacon = hex(Self.beacon)
        #expect(IBeacon.decode(Array(beacon.dropLast()))?.failure == .wrongLength(22, expected: [23]))
        #expect(IBeacon.decode(beacon + [0])?.failure == .wrongLength(24, expected: [23]))
        #expect(IBeacon.decode([0x02])?.failure == .truncated(at: 1))
        let wrongLength = IBeacon.decode([0x02, 0x16] + Array(beacon.dropFirst(2)))
        #expect(wrongLength?.failure == .invalidValue("iBeacon length byte 0x16, not 0x15"))
    }
}

@Suite("Eddystone frames")
struct EddystoneTests {
    @Test("UID with and without its reserved bytes")
    func uid() throws {
        let frame = hex("00 E7 00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 00 00")
        for payload in [frame, Array(frame.dropLast(2))] {
            let reading = try #require(Eddystone.decode(payload).reading)
            #expect(reading["namespace"] == .text("00010203040506070809") && reading["instance"] == .text("0a0b0c0d0e0f"))
            #expect(reading.number("tx_power") == -25)
        }
        #expect(Eddystone.decode(Array(frame.dropLast())).failure == .wrongLength(19, expected: [18, 20]))
        #expect(Eddystone.decode(frame + [0]).failure == .wrongLength(21, expected: [18, 20]))
    }

    @Test(
        "URL: the scheme prefix and the expansion codes",
        arguments: [
            ("10 F8 03 67 6F 6F 67 6C 65 07", "https://google.com"),
            ("10 EB 00 65 78 61 6D 70 6C 65 00 70 61 74 68", "http://www.example.com/path"),
            ("10 00 01 61 01", "https://www.a.org/"),
            ("10 00 02 61 02 62 03 63 04 64 05 65 06", "http://a.edu/b.net/c.info/d.biz/e.gov/"),
            ("10 00 03 61 08 62 09 63 0A 64 0B 65 0C 66 0D", "https://a.orgb.educ.netd.infoe.bizf.gov"),
            ("10 00 02 21 7E", "http://!~"),
        ])
    func url(frame: String, address: String) throws {
        let reading = try #require(Eddystone.decode(hex(frame)).reading)
        #expect(reading["url"] == .text(address))
    }

    @Test("URL: unknown schemes, reserved codes, spaces, DEL and non-ASCII are undecodable; so are empty and overlong URLs")
    func badURL() {
        #expect(Eddystone.decode(hex("10 00 04 61")).failure == .invalidValue("URL scheme 0x04"))
        for byte: UInt8 in [0x0E, 0x20, 0x7F, 0x80, 0xFF] {
            #expect(Eddystone.decode([0x10, 0x00, 0x03, 0x61, byte]).failure != nil, "byte \(byte)")
        }
        #expect(Eddystone.decode(hex("10 00 03")).failure == .truncated(at: 3))
        #expect(Eddystone.decode([0x10, 0x00, 0x03] + Array(repeating: 0x61, count: 18)).failure == .tooLong(21))
        #expect(Eddystone.decode([0x10, 0x00, 0x03] + Array(repeating: 0x61, count: 17)).reading != nil)
    }

    @Test("TLM: battery in V, 8.8 fixed-point temperature, counters; unset fields left out; encrypted TLM recognised")
    func telemetry() throws {
        let reading = try #require(Eddystone.decode(hex("20 00 0B B8 1A 80 00 00 01 00 00 00 0E 10")).reading)
        #expect(reading.number("voltage") == 3.0 && reading.number("temperature") == 26.5)
        #expect(reading.number("advertisement_count") == 256 && reading.number("uptime") == 360)
        let cold = try #require(Eddystone.decode(hex("20 00 00 00 FF 80 FF FF FF FF 00 00 00 01")).reading)
        #expect(cold["voltage"] == nil && cold.number("temperature") == -0.5)
        #expect(cold.number("advertisement_count") == 4_294_967_295 && cold.number("uptime") == 0.1)
        #expect(Eddystone.decode(hex("20 00 0B B8 80 00 00 00 00 01 00 00 00 01")).reading?["temperature"] == nil)
        #expect(Eddystone.decode(hex("20 01 00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF")) == .encrypted)
        #expect(Eddystone.decode(hex("20 02 0B B8 1A 80 00 00 01 00 00 00 0E 10")).failure == .invalidValue("TLM version 0x02"))
        #expect(Eddystone.decode(hex("20 00 0B B8 1A 80 00 00 01 00 00 00 0E")).failure == .wrongLength(13, expected: [14]))
        #expect(Eddystone.decode(hex("20")).failure == .truncated(at: 1))
    }

    @Test("EID, unknown frames and empty data")
    func others() {
        #expect(Eddystone.decode(hex("30 F0 01 02 03 04 05 06 07 08")).reading?["ephemeral_id"] == .text("0102030405060708"))
        #expect(Eddystone.decode(hex("30 F0 01 02")).failure == .wrongLength(4, expected: [10]))
        #expect(Eddystone.decode(hex("40 00 01")).failure == .unknownFrame(0x40))
        #expect(Eddystone.decode([]).failure == .empty)
    }
}
