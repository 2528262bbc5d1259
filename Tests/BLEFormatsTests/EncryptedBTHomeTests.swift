import BLEFormats
import BridgeCore
import Support
import TestSupport
import Testing

/// Vectors from bthome-ble's `tests/test_parser_v2.py` (Bluetooth-Devices/bthome-ble): a Shelly BLU H&T,
/// 54:48:E6:8F:80:A5, key `231d39c1d7cc1ab1aee224cd096db932`.
@Suite("Encrypted BTHome v2 adverts")
struct EncryptedBTHomeTests {
    static let sender = try! BluetoothAddress("54:48:E6:8F:80:A5")
    static let key = try! BindKey(hex: "231d39c1d7cc1ab1aee224cd096db932")

    /// Test name, payload, the counter it carries, and the state it decrypts to.
    static let vectors: [(String, String, UInt32, [String: JSONValue])] = [
        ("test_bindkey_correct", "41a47266c95f730011223378237214", 0x3322_1100, ["temperature": 25.06, "humidity": 50.55]),
        ("test_increasing_encryption_counter (1)", "41e445f3c9962b332211006c7c4519", 1_122_867, ["temperature": 25.06, "humidity": 50.55]),
        ("test_increasing_encryption_counter (2)", "413e932cc7175f34221100553876af", 1_122_868, ["temperature": 25.06, "humidity": 50.55]),
    ]

    @Test("decrypted with the key: the objects and the counter", arguments: 0..<vectors.count)
    func decrypted(index: Int) throws {
        let (name, payload, counter, state) = Self.vectors[index]
        let reading = try #require(BTHome.decode(hex(payload), sender: Self.sender, key: Self.key).reading, "\(name)")
        #expect(reading.state == state, "\(name)")
        #expect(reading.counter == counter, "\(name)")
        #expect(BTHome.decode(hex(payload), sender: Self.sender) == .encrypted, "without a key")
    }

    @Test("a wrong key, or a counter changed on the way, fails the tag (test_bindkey_wrong, test_bindkey_verified_can_be_unset)")
    func wrongKey() throws {
        let wrong = try BindKey(hex: "814aac74c4f17b6c1581e1ab87816b99")
        #expect(BTHome.decode(hex("41a47266c95f730011223378237214"), sender: Self.sender, key: wrong) == .wrongKey)
        #expect(BTHome.decode(hex("41a47266c95f730111223378237214"), sender: Self.sender, key: Self.key) == .wrongKey)
    }

    @Test("one key decrypts BTHome and MiBeacon v5 adverts in turn, also right after one whose tag failed")
    func keyReusedAcrossFormats() throws {
        let product: UInt16 = 0x055B
        for round in 0..<3 {
            let bthome = try #require(BTHome.seal([0x01, UInt8(50 + round)], sender: Self.sender, key: Self.key, counter: 7))
            var tampered = bthome
            tampered[1] ^= 0x01
            #expect(BTHome.decode(tampered, sender: Self.sender, key: Self.key) == .wrongKey, "round \(round)")
            #expect(BTHome.decode(bthome, sender: Self.sender, key: Self.key).reading?.number("battery") == Double(50 + round))
            let object: [UInt8] = [0x0A, 0x10, 0x01, UInt8(60 + round)]
            let mi = try #require(
                MiBeacon.seal(object, sender: Self.sender, product: product, counter: UInt8(round), extended: 1, key: Self.key))
            #expect(MiBeacon.decode(mi, sender: Self.sender, key: Self.key).reading?.number("battery") == Double(60 + round))
        }
    }

    @Test("a plain advert from a device with a key is a downgrade, not values (test_encryption_downgrade_fails)")
    func downgrade() {
        #expect(BTHome.decode(hex("4004138a01"), sender: Self.sender, key: Self.key) == .undecodable(.downgrade))
        #expect(BTHome.decode(hex("4004138a01"), sender: Self.sender).reading?.number("pressure") == 1008.83)
    }

    @Test("adverts sealed here with random keys and counters decrypt to what went in")
    func roundTrip() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let key = try BindKey(bytes: random.bytes(16))
            let counter = UInt32(truncatingIfNeeded: random.next())
            let battery = UInt8(random.next() % 101)
            let payload = try #require(BTHome.seal([0x01, battery], sender: Self.sender, key: key, counter: counter))
            let reading = try #require(BTHome.decode(payload, sender: Self.sender, key: key).reading)
            #expect(reading.number("battery") == Double(battery) && reading.counter == counter)
        }
    }

    @Test("AES-CCM itself: RFC 3610's packet vector 1 (13-byte nonce, 8 bytes of associated data, 8-byte tag)")
    func rfc3610() throws {
        let key = hex("C0 C1 C2 C3 C4 C5 C6 C7 C8 C9 CA CB CC CD CE CF")
        let nonce = hex("00 00 00 03 02 01 00 A0 A1 A2 A3 A4 A5")
        let header = hex("00 01 02 03 04 05 06 07")
        let plaintext = hex("08 09 0A 0B 0C 0D 0E 0F 10 11 12 13 14 15 16 17 18 19 1A 1B 1C 1D 1E")
        let sealed = try #require(AESCCM.seal(plaintext, key: key, nonce: nonce, associatedData: header, tagLength: 8))
        #expect(sealed.ciphertext == hex("58 8C 97 9A 61 C6 63 D2 F0 66 D0 C2 C0 F9 89 80 6D 5F 6B 61 DA C3 84"))
        #expect(sealed.tag == hex("17 E8 D1 2C FD F9 26 E0"))
        #expect(AESCCM.open(sealed.ciphertext, tag: sealed.tag, key: key, nonce: nonce, associatedData: header) == plaintext)
        #expect(AESCCM.open(sealed.ciphertext, tag: [0] + sealed.tag.dropFirst(), key: key, nonce: nonce, associatedData: header) == nil)
    }
}
