import BLEModels
import BridgeCore
import Support
import Testing

@Suite("BLE UUIDs and the device ids of addresses")
struct BLEUUIDTests {
    @Test(
        "an address's device id is ble_ and its twelve digits",
        arguments: [
            ("AA:BB:CC:DD:EE:FF", "AA:BB:CC:DD:EE:FF"), ("a4:c1:38:0a:0b:0c", "A4:C1:38:0A:0B:0C"),
            ("11-22-33-44-55-66", "11:22:33:44:55:66"), ("00:00:00:00:00:00", "00:00:00:00:00:00"),
        ])
    func addresses(text: String, canonical: String) throws {
        #expect(try BluetoothAddress(text).deviceID == DeviceID.ble(mac: canonical))
    }

    @Test(
        "UUIDs compare in canonical lowercase 128-bit form",
        arguments: [
            ("fff0", "0000fff0-0000-1000-8000-00805f9b34fb", "fff0"),
            ("FFF0", "0000fff0-0000-1000-8000-00805f9b34fb", "fff0"),
            ("0x180D", "0000180d-0000-1000-8000-00805f9b34fb", "180d"),
            ("0000180D", "0000180d-0000-1000-8000-00805f9b34fb", "180d"),
            ("0000FFF0-0000-1000-8000-00805F9B34FB", "0000fff0-0000-1000-8000-00805f9b34fb", "fff0"),
            ("0000fff000001000800000805f9b34fb", "0000fff0-0000-1000-8000-00805f9b34fb", "fff0"),
            ("6e400001-b5a3-f393-e0a9-e50e24dcca9e", "6e400001-b5a3-f393-e0a9-e50e24dcca9e",
                "6e400001-b5a3-f393-e0a9-e50e24dcca9e"),
            ("12345678", "12345678-0000-1000-8000-00805f9b34fb", "12345678-0000-1000-8000-00805f9b34fb"),
        ])
    func uuids(text: String, canonical: String, short: String) throws {
        let uuid = try BLEUUID(text)
        #expect(uuid.description == canonical)
        #expect(uuid.short == short)
        #expect(uuid == (try BLEUUID(canonical)))
    }

    @Test("16-bit SIG UUIDs convert both ways; other UUIDs have no 16-bit form")
    func sixteenBit() throws {
        #expect(BLEUUID(uuid16: 0x180D) == (try BLEUUID("180d")) && BLEUUID(uuid16: 0xFCD2).description.hasPrefix("0000fcd2-"))
        #expect(BLEUUID(uuid16: 0).uuid16 == 0 && BLEUUID(uuid16: 0xFFFF).uuid16 == 0xFFFF)
        #expect(try BLEUUID("2a37").uuid16 == 0x2A37)
        #expect(try BLEUUID("12345678").uuid16 == nil && (try BLEUUID("6e400001-b5a3-f393-e0a9-e50e24dcca9e")).uuid16 == nil)
    }

    @Test(
        "malformed UUIDs are errors",
        arguments: ["", "fff", "fffg", "0x", "0xfff0fff0fff0", "0000fff0-0000-1000-8000-00805f9b34f",
            "0000fff0-0000-1000-8000+00805f9b34fb", "0000fff00-000-1000-8000-00805f9b34fb", "heart_rate", "١٨٠d"])
    func badUUIDs(text: String) {
        #expect(throws: BLEFormatError.self) { try BLEUUID(text) }
    }

    @Test("the dashed form is read from bytes in either case; any other text is not")
    func dashedBytes() throws {
        let parse = { (text: String) in Array(text.utf8).withUnsafeBufferPointer { BLEUUID(dashed: $0) } }
        #expect(parse("0000FCD2-0000-1000-8000-00805F9B34FB") == BLEUUID(uuid16: 0xFCD2))
        #expect(parse("6e400001-b5a3-f393-e0a9-e50e24dcca9e") == (try BLEUUID("6E400001B5A3F393E0A9E50E24DCCA9E")))
        for text in ["fcd2", "0000fcd200001000800000805f9b34fb", "0000fcd2-0000-1000-8000-00805f9b34f", "0000fcd2-0000-1000-8000+00805f9b34fb",
            "0000fcd2-0000-1000-8000-00805f9b34fg"]
        {
            #expect(parse(text) == nil, "\(text)")
        }
    }
}
