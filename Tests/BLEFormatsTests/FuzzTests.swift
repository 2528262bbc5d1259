import BLEFormats
import BLEModels
import TestSupport
import Testing
import Support

@Suite("Decoder fuzzing: random, truncated and overlong payloads are undecodable, never a trap or a wrong value")
struct FuzzTests {
    static let seeds: [UInt64] = [1, 2, 3, 0x5EED, 0xDEAD_BEEF]
    static let sender = try! BluetoothAddress("A4:C1:38:12:34:56")

    /// Valid payloads of fixed-size formats, each with its decoder.
    static let fixed: [(String, [UInt8], @Sendable ([UInt8]) -> Decoded)] = [
        ("pvvx", hex("56 34 12 38 C1 A4 29 09 D7 11 86 0B 55 12 05"), { XiaomiCustom.decodePVVX($0, sender: sender) }),
        ("atc", hex("A4 C1 38 12 34 56 00 EA 2D 55 0B 86 12"), { XiaomiCustom.decodeATC($0, sender: sender) }),
        (
            "ibeacon", hex("02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02 C5"),
            { IBeacon.decode($0) ?? .undecodable(.empty) }
        ),
        ("eddystone uid", hex("00 E7 00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 00 00"), Eddystone.decode),
        ("eddystone tlm", hex("20 00 0B B8 1A 80 00 00 01 00 00 00 0E 10"), Eddystone.decode),
        ("eddystone eid", hex("30 F0 01 02 03 04 05 06 07 08"), Eddystone.decode),
        ("battery", [0x64], characteristic(0x2A19)),
        ("temperature", [0xC4, 0x09], characteristic(0x2A6E)),
        ("humidity", [0xBF, 0x13], characteristic(0x2A6F)),
        ("temperature celsius", [0xEA, 0x00], characteristic(0x2A1F)),
        ("heart rate", hex("1F 2C 01 10 27 00 04 20 03"), characteristic(0x2A37)),
    ]

    /// The decoder of a standard characteristic.
    static func characteristic(_ uuid: UInt16) -> @Sendable ([UInt8]) -> Decoded {
        { StandardCharacteristic.decode(BLEUUID(uuid16: uuid), $0) ?? .undecodable(.empty) }
    }

    @Test("every truncation of a fixed-size payload, and every payload with bytes added, is undecodable", arguments: 0..<fixed.count)
    func truncatedAndOverlong(index: Int) {
        let (name, payload, decode) = Self.fixed[index]
        #expect(decode(payload).reading != nil, "\(name) itself decodes")
        // Some formats have optional tails: an Eddystone UID without its reserved bytes, a heart-rate value
        // without its RR intervals or with one fewer.
        let validPrefixes: Set<Int> = ["eddystone uid": [18], "heart rate": [5, 7]][name] ?? []
        for length in 0..<payload.count where !validPrefixes.contains(length) {
            #expect(decode(Array(payload.prefix(length))).failure != nil, "\(name) cut to \(length) bytes")
        }
        var random = SplitMix64(seed: UInt64(index))
        for extra in 1...8 {
            let longer = payload + random.bytes(extra)
            // Two more bytes are one more RR interval.
            if name == "heart rate", extra % 2 == 0 { continue }
            #expect(decode(longer).failure != nil, "\(name) with \(extra) more bytes")
        }
    }

    @Test("random bytes through every decoder: no trap, and any value decoded is finite", arguments: seeds)
    func random(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let uuids: [UInt16] = [0x2A19, 0x2A37, 0x2A6E, 0x2A6F, 0x2A1F, 0x2A29, 0x2A24, 0x2A25]
        var decoded = 0
        for round in 0..<4_000 {
            var bytes = random.bytes(Int(random.next() % 32))
            // Most rounds get a plausible first byte, so the deeper checks are reached.
            if round % 4 != 0, !bytes.isEmpty { bytes[0] = [0x40, 0x44, 0x42, 0x00, 0x10, 0x20, 0x02][Int(random.next() % 7)] }
            if round % 8 == 1, bytes.count > 1 { bytes[1] = 0x15 }
            var results = [
                BTHome.decode(bytes), XiaomiCustom.decodeATC(bytes), XiaomiCustom.decodePVVX(bytes), Eddystone.decode(bytes),
                IBeacon.decode(bytes, rssi: Int(Int8(truncatingIfNeeded: random.next()))) ?? .encrypted,
            ]
            results += uuids.compactMap { StandardCharacteristic.decode(BLEUUID(uuid16: $0), bytes) }
            // The vendor formats, and the encrypted ones with a key (a wrong one, for random bytes).
            let key = try? BindKey(bytes: random.bytes(16))
            results += [
                MiBeacon.decode(bytes, sender: Self.sender, key: key), BTHome.decode(bytes, sender: Self.sender, key: key),
                Ruuvi.decode(bytes), OralB.decode(bytes), ThermoPro.decode(company: 0xF1C2, bytes, name: "TP357"),
                Inkbird.decode(company: 0x07FC, bytes, name: "sps"),
            ]
            results += [
                SwitchBot.decode(serviceData: bytes, manufacturerData: random.bytes(Int(random.next() % 20))),
                Govee.decode(company: 0xEC88, bytes, name: "GVH5075_1234"),
                Govee.decode(company: 0x0001, bytes, name: "GVH5100_1234"),
            ].compactMap { $0 }
            for result in results {
                guard let reading = result.reading else { continue }
                decoded += 1
                for measurement in reading.measurements {
                    switch measurement.value {
                    case .number(let value): #expect(value.isFinite, "\(measurement.key) from \(bytes)")
                    case .numbers(let values):
                        let finite = values.allSatisfy(\.isFinite)
                        #expect(finite)
                    default: break
                    }
                }
            }
        }
        #expect(decoded > 1_000, "the plausible rounds must reach the decoders' value checks")
    }

    /// A BTHome payload of distinct quantities, cut after each object.
    static let bthome = hex("40 00 21 01 5A 02 C4 09 03 BF 13 0C 02 0C 2D 01 3A 04 53 02 48 69 50 5D 39 61 64")
    static let boundaries = [1, 3, 5, 8, 11, 14, 16, 18, 22, 27]

    @Test("BTHome cut anywhere: at an object boundary the values are exactly the full payload's, else undecodable")
    func bthomeTruncations() throws {
        let full = try #require(BTHome.decode(Self.bthome).reading)
        let keys = ["battery", "temperature", "humidity", "voltage", "window", "button", "text", "timestamp"]
        #expect(full.measurements.map(\.key) == keys)
        for length in 0..<Self.bthome.count {
            let result = BTHome.decode(Array(Self.bthome.prefix(length)))
            if let index = Self.boundaries.firstIndex(of: length) {
                // The first boundary follows the info byte, the second the packet id; each later one adds an object.
                let reading = try #require(result.reading, "cut at \(length)")
                #expect(reading.measurements == Array(full.measurements.prefix(max(index - 1, 0))), "cut at \(length)")
            } else {
                #expect(result.failure != nil, "cut at \(length) gave \(result)")
            }
        }
    }

    @Test(
        "random BTHome objects after a valid header: every value is one the object table defines, or decoding stops with a reason",
        arguments: seeds)
    func bthomeObjects(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let defined = Dictionary(BTHome.objects.map { ($0.quantity.key, $0.quantity) }, uniquingKeysWith: { first, _ in first })
        var values = 0
        for _ in 0..<2_000 {
            let bytes = [0x40] + random.bytes(Int(random.next() % 40))
            switch BTHome.decode(bytes) {
            case .reading(let reading):
                for measurement in reading.measurements {
                    values += 1
                    let quantity = defined[measurement.key] ?? defined[Self.unnumbered(measurement.key)]
                    #expect(quantity != nil || measurement.key.hasPrefix("dimmer_steps"), "\(measurement.key) from \(bytes)")
                    if let quantity {
                        #expect(quantity.unit == measurement.quantity.unit && quantity.kind == measurement.quantity.kind)
                    }
                }
                if case .unknownObject(let id, let at)? = reading.stoppedEarly {
                    #expect(bytes[at] == id && !BTHome.objects.contains { $0.id == id })
                }
            case .undecodable(let failure):
                if case .truncated(let at) = failure { #expect(at >= 1 && at < bytes.count) } else { Issue.record("\(failure)") }
            case .encrypted, .wrongKey:
                Issue.record("a plain header read as encrypted")
            }
        }
        #expect(values > 500)
    }

    /// `button_3` → `button`.
    static func unnumbered(_ key: String) -> String {
        guard let underscore = key.lastIndex(of: "_"), Int(key[key.index(after: underscore)...]) != nil else { return key }
        return String(key[..<underscore])
    }
}
