import BLEFormats
import BridgeCore
import Support
import TestSupport
import Testing

/// Adverts and bindkeys from xiaomi-ble's `tests/test_parser.py` (Bluetooth-Devices/xiaomi-ble), each with the
/// values that test expects; the name is the test's.
@Suite("Xiaomi MiBeacon adverts, plain and encrypted")
struct MiBeaconTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let test: String
        let address: String
        let payload: String
        var key: String?
        let model: String
        let state: [String: JSONValue]
        var testDescription: String { test }
    }

    static let plain: [Vector] = [
        Vector(
            test: "test_Xiaomi_LYWSDCGQ", address: "58:2D:34:3B:2E:BF", payload: "5020aa01a3bf2e3b342d580d1004b40095020a10013b",
            model: "LYWSDCGQ", state: ["temperature": 18, "humidity": 66.1, "battery": 59]),
        Vector(
            test: "test_Xiaomi_LYWSD03MMC", address: "A4:C1:38:B4:94:4C", payload: "50305b05034c94b438c1a40d10041001ea01",
            model: "LYWSD03MMC", state: ["temperature": 27.2, "humidity": 49]),
        Vector(
            test: "test_Xiaomi_HHCCJCY01", address: "C4:7C:8D:6B:4F:F3", payload: "7120980012f34f6b8d7cc40d041002c400",
            model: "HHCCJCY01", state: ["temperature": 19.6]),
        Vector(
            test: "test_Xiaomi_GCLS002", address: "C4:7C:8D:6D:59:3E", payload: "7120bc03cd3e596d8d7cc40d0410023c01",
            model: "GCLS002", state: ["temperature": 31.6]),
        Vector(
            test: "test_Xiaomi_CGH1", address: "A4:C1:38:0A:03:D6", payload: "5040d60301d6030a38c1a419100100", model: "CGH1",
            state: ["contact": "OFF"]),
        Vector(
            test: "test_Xiaomi_MJYD02YL", address: "A4:C1:38:07:F6:01", payload: "5040f6070101f60738c1a40f0003640000",
            model: "MJYD02YL", state: ["occupancy": "ON", "light_detected": "ON"]),
        Vector(
            test: "test_Xiaomi_CGPR1", address: "A4:C1:38:0A:00:83", payload: "5040830a0183000a38c1a40f0003640000",
            model: "CGPR1", state: ["occupancy": "ON", "illuminance": 100]),
        Vector(
            test: "test_Xiaomi_ESM787_temperature_humidity", address: "A4:C1:38:02:F8:F4",
            payload: "5059db780df4f80238c1a40d1004eb00e701", model: "ESM787", state: ["temperature": 23.5, "humidity": 48.7]),
        Vector(
            test: "test_Xiaomi_ESM787_discovery", address: "A4:C1:38:02:F8:F4", payload: "1059db780df4f80238c1a4", model: "ESM787",
            state: [:]),
        Vector(
            test: "test_Xiaomi_MS1BB_MI_obj4a1a", address: "A4:C1:38:66:E5:67", payload: "505989180167e56638c1a41a4a0101",
            model: "MS1BB(MI)", state: ["contact": "OFF"]),
    ]

    static let encrypted: [Vector] = [
        Vector(
            test: "test_Xiaomi_LYWSD03MMC_encrypted", address: "A4:C1:38:02:83:F4",
            payload: "58585b0550f4830238c1a495ef58763c26000097e2abb5", key: "e9ea895fac7cca6d30532432a516f3a8",
            model: "LYWSD03MMC", state: ["humidity": 46.7]),
        Vector(
            test: "test_Xiaomi_CGG1", address: "5A:58:2D:34:12:5F", payload: "5858480b685f12342d585a0b1841e2aa000e00a4964fb5",
            key: "814aac74c4f17b6c1581e1ab87816b99", model: "CGG1-ENCRYPTED", state: ["humidity": 59.6]),
        Vector(
            test: "test_Xiaomi_CGDK2", address: "58:2D:34:12:20:89", payload: "58586f0607892012342d585f176dd54f0200002fa453fa",
            key: "a3bfe9853dd85a620debe3620caaa351", model: "CGDK2", state: ["temperature": 22.6]),
        Vector(
            test: "test_Xiaomi_CGDK3", address: "58:2D:34:87:94:0C", payload: "4858594fef546f0e7450729321010038d74333",
            key: "872ea1bb02ba9713e885cb054c537368", model: "CGDK3", state: ["temperature": 23.8]),
        Vector(
            test: "test_Xiaomi_LYWSD02MMC", address: "A4:C1:38:56:53:84", payload: "5858e4162c84535638c1a42b6ef2e91200006c884d9e",
            key: "a115210eed7a88e50ad52662e732a9fb", model: "LYWSD02MMC", state: ["humidity": 58]),
        Vector(
            test: "test_Xiaomi_LYWSD02MMC_v2_temperature", address: "A4:C1:38:0E:FD:78",
            payload: "4858422529202d8c7a76b756a82a0078b8224e", key: "19b1c678ab0a8bc3dc77765f059188d4", model: "LYWSD02MMC",
            state: ["temperature": 26.1]),
        Vector(
            test: "test_Xiaomi_XMWSDJ04MMC", address: "2C:11:65:25:70:04", payload: "48590312a41b776e7c96add7000000f2bf545b",
            key: "b2cf9a553d53571b5657defd582d676e", model: "XMWSDJ04MMC", state: ["humidity": 45]),
        Vector(
            test: "test_Xiaomi_JTYJGD03MI_smoke", address: "54:EF:44:E3:9C:BC",
            payload: "5859970966bc9ce344ef5401081205000000715ebe90", key: "5b51a7c91cde6707c9ef18dfda143a58", model: "JTYJGD03MI",
            state: ["smoke": "ON"]),
        Vector(
            test: "test_Xiaomi_MCCGQ02HL", address: "E4:AA:EC:81:21:AE", payload: "58588b09a3ae2181ecaae40e2c553c040000d28a500c",
            key: "017e52d2684779298709b117c0a75a7b", model: "MCCGQ02HL", state: ["contact": "OFF"]),
        Vector(
            test: "test_Xiaomi_MJWSD06MMC_temperature", address: "A4:C1:38:80:15:07",
            payload: "4859b5553a8699bda053448f1200005b046d6a", key: "4d8f1373fb4d3bab557d0ebd1c78f8c4", model: "MJWSD06MMC",
            state: ["temperature": 25.2]),
        Vector(
            test: "test_Xiaomi_HS1BB_battery", address: "A4:C1:38:05:8E:E9", payload: "5859eb2a9ee98e0538c1a4d07ad3e338000033635d10",
            key: "7475a4a77584401780ffc3ee62dd353c", model: "HS1BB(MI)", state: ["battery": 100]),
        Vector(
            test: "test_Xiaomi_HS1BB_no_motion", address: "A4:C1:38:05:8E:E9",
            payload: "5859eb2ac1e98e0538c1a40759530f8d380000b77a70f8", key: "7475a4a77584401780ffc3ee62dd353c", model: "HS1BB(MI)",
            state: ["occupancy": "OFF"]),
        Vector(
            test: "test_Xiaomi_MS1BB_MI_obj4a08", address: "A4:C1:38:05:8E:E9", payload: "4859eb2ac2fce02ca0b43af2380000a2d9f05f",
            key: "7475a4a77584401780ffc3ee62dd353c", model: "HS1BB(MI)", state: ["occupancy": "ON", "illuminance": 228]),
        Vector(
            test: "test_Xiaomi_MS1BB_MI_obj4804", address: "A4:C1:38:66:E5:67",
            payload: "585989189a67e56638c1a49dd97af3260000c8a60bd5", key: "0fdcc30fe9289254876b5ef7c11ef1f0", model: "MS1BB(MI)",
            state: ["contact": "OFF"]),
        Vector(
            test: "test_Xiaomi_RTCGQ02LM_light_and_motion", address: "18:C2:3C:20:8E:77",
            payload: "58598d0a8c778e203cc2185a273628ec32060000c4264015", key: "4960bb9f8711b4ffd7df1756d11427ae",
            model: "RTCGQ02LM", state: ["occupancy": "ON", "light_detected": "ON"]),
        Vector(
            test: "test_Xiaomi_RTCGQ02LM_timeout_motion", address: "18:C2:3C:20:8E:77",
            payload: "48598d0a927953750fed0f990600005cad2c29", key: "4960bb9f8711b4ffd7df1756d11427ae", model: "RTCGQ02LM",
            state: ["occupancy": "OFF"]),
        Vector(
            test: "test_Xiaomi_XMPIRO2SXS", address: "DC:8E:95:2D:EA:43", payload: "485931350b64799117331ef4020000c5d2f6ac",
            key: "685d647dc5e7bc9bcfcf5a1357bd2114", model: "XMPIRO2SXS", state: ["occupancy": "ON", "illuminance": 51]),
        Vector(
            test: "test_Xiaomi_KS2_temperature", address: "A4:C1:38:A1:FE:E6", payload: "48590b52b3c1b85c50f35c570900004a9ed6b8",
            key: "8bdff7d0f70fa7f5c68f42157b5fd65b", model: "KS2BB", state: ["temperature": 26.2]),
    ]

    static func decode(_ vector: Vector) throws -> Decoded {
        let key = try vector.key.map { try BindKey(hex: $0) }
        return MiBeacon.decode(hex(vector.payload), sender: try BluetoothAddress(vector.address), key: key)
    }

    @Test("plain frames: every object the test expects, and the model from the product id", arguments: plain)
    func plainFrames(vector: Vector) throws {
        let reading = try #require(try Self.decode(vector).reading)
        #expect(reading.state == vector.state)
        #expect(reading.model?.model == vector.model)
    }

    @Test("v4/v5 frames decrypted with their bindkey", arguments: encrypted)
    func encryptedFrames(vector: Vector) throws {
        let reading = try #require(try Self.decode(vector).reading)
        #expect(reading.state == vector.state)
        #expect(reading.model?.model == vector.model)
        var withoutKey = vector
        withoutKey.key = nil
        #expect(try Self.decode(withoutKey) == .encrypted)
    }

    @Test("a wrong v4/v5 key is wrongKey, never a value: the tag does not match (test_bindkey_wrong)")
    func wrongKey() throws {
        let vector = Self.encrypted[0]
        let wrong = try BindKey(hex: "814aac74c4f17b6c1581e1ab87816b99")
        #expect(MiBeacon.decode(hex(vector.payload), sender: try BluetoothAddress(vector.address), key: wrong) == .wrongKey)
        // A flipped ciphertext bit fails the tag too.
        var tampered = hex(vector.payload)
        tampered[12] ^= 0x01
        let right = try BindKey(hex: try #require(vector.key))
        #expect(MiBeacon.decode(tampered, sender: try BluetoothAddress(vector.address), key: right) == .wrongKey)
    }

    @Test("legacy v3 frames with a 12-byte key (test_Xiaomi_YLKG07YL_press, _rotate); a wrong one is wrongKey")
    func legacy() throws {
        let sender = try BluetoothAddress("F8:24:41:C5:98:8B")
        let key = try BindKey(hex: "b853075158487ca39a5b5ea9")
        let press = try #require(MiBeacon.decode(hex("5830b603d28b98c54124f8c3491476757e00000099"), sender: sender, key: key).reading)
        #expect(press.state == ["button": "press"])
        #expect(press.model?.model == "YLKG07YL/YLKG08YL")
        let turn = try #require(MiBeacon.decode(hex("5830b603368b98c54124f88bb8f2661351000000d6"), sender: sender, key: key).reading)
        #expect(turn.state == ["dimmer": "rotate_left", "dimmer_steps": 1])
        // test_bindkey_wrong_legacy: without a tag, the objects that come out do not fit together.
        let wrong = try BindKey(hex: "b853075158487aa39a5b5ea9")
        #expect(MiBeacon.decode(hex("5830b603d28b98c54124f8c3491476757e00000099"), sender: sender, key: wrong) == .wrongKey)
    }

    @Test("frames sealed here with random keys and counters decrypt to what went in")
    func roundTrip() throws {
        var random = SplitMix64(seed: 20)
        let sender = try BluetoothAddress("A4:C1:38:02:83:F4")
        for _ in 0..<200 {
            let key = try BindKey(bytes: random.bytes(16))
            let temperature = Int16(truncatingIfNeeded: Int(random.next() % 800) - 400)
            let raw = UInt16(bitPattern: temperature)
            let objects: [UInt8] = [0x04, 0x10, 0x02, UInt8(raw & 0xFF), UInt8(raw >> 8)]
            let counter = UInt8(truncatingIfNeeded: random.next())
            let frame = try #require(
                MiBeacon.seal(
                    objects, sender: sender, product: 0x055B, counter: counter, extended: UInt32(random.next() % 0xFF_FFFF),
                    key: key))
            let reading = try #require(MiBeacon.decode(frame, sender: sender, key: key).reading)
            #expect(reading.number("temperature") == Double(temperature) / 10)
            #expect(reading.packetID == counter)
        }
    }

    @Test("keys: 32 or 24 hex digits, never shown; anything else is refused without quoting it")
    func keys() throws {
        let key = try BindKey(hex: "e9ea895f ac7cca6d 30532432 a516f3a8")
        #expect("\(key)" == "***" && String(reflecting: key) == "***")
        #expect(throws: BindKeyError.wrongLength(30)) { try BindKey(hex: "e9ea895fac7cca6d30532432a516f3") }
        #expect(throws: BindKeyError.notHex) { try BindKey(hex: "e9ea895fac7cca6d30532432a516f3zz") }
        #expect(!BindKeyError.notHex.description.contains("zz"))
    }

    @Test("an unknown product id is not read (test_Xiaomi_unknown_device_logs_product_id): phones send FE95 too")
    func unknownProduct() throws {
        let sender = try BluetoothAddress("58:2D:34:3B:2E:BF")
        #expect(MiBeacon.decode(hex("5020ffffa3bf2e3b342d580d1004b40095020a10013b"), sender: sender).failure != nil)
    }

    @Test("a frame that names another MAC than its sender's is not read; cut frames are undecodable")
    func malformed() throws {
        let vector = Self.plain[0]
        let other = try BluetoothAddress("11:22:33:44:55:66")
        #expect(MiBeacon.decode(hex(vector.payload), sender: other).failure != nil)
        let payload = hex(vector.payload)
        for length in [0, 1, 4, 7, 12, 15, 20] {
            #expect(MiBeacon.decode(Array(payload.prefix(length))).failure != nil, "\(length) bytes")
        }
    }
}
