public import BLEModels
import Support

/// Eddystone frames (`ServiceData["0000feaa-…"]`, big-endian; google/eddystone `protocol-specification.md`).
public enum Eddystone {
    /// The service data UUID, `FEAA`.
    public static let service = BLEUUID(uuid16: 0xFEAA)

    /// Decodes one frame: UID, URL, TLM (unencrypted; encrypted TLM is recognised) or EID.
    public static func decode(_ payload: [UInt8]) -> Decoded {
        guard let type = payload.first else { return .undecodable(.empty) }
        do throws(DecodeFailure) {
            switch type {
            case 0x00: return .reading(try uid(payload))
            case 0x10: return .reading(try url(payload))
            case 0x20: return try telemetry(payload)
            case 0x30: return .reading(try eid(payload))
            default: return .undecodable(.unknownFrame(type))
            }
        } catch {
            return .undecodable(error)
        }
    }

    /// `00` | tx power at 0 m i8 | namespace (10) | instance (6) | RFU (2, which some beacons leave out).
    static func uid(_ payload: [UInt8]) throws(DecodeFailure) -> Reading {
        guard payload.count == 18 || payload.count == 20 else { throw .wrongLength(payload.count, expected: [18, 20]) }
        var reader = ByteReader(payload, offset: 1)
        let txPower = try reader.int8()
        let namespace = Hex.string(try reader.take(10))
        let instance = Hex.string(try reader.take(6))
        return Reading([
            Measurement(.namespace, .text(namespace)), Measurement(.instance, .text(instance)),
            Measurement(.txPower, Double(txPower)),
        ])
    }

    /// `10` | tx power i8 | scheme | encoded URL (1 to 17 bytes).
    static func url(_ payload: [UInt8]) throws(DecodeFailure) -> Reading {
        guard payload.count >= 4 else { throw .truncated(at: min(payload.count, 3)) }
        guard payload.count <= 20 else { throw .tooLong(payload.count) }
        var reader = ByteReader(payload, offset: 1)
        let txPower = try reader.int8()
        let scheme = try reader.uint8()
        guard Int(scheme) < EddystoneURL.schemes.count else { throw .invalidValue("URL scheme 0x\(Hex.byte(scheme))") }
        let address = try EddystoneURL.expand(try reader.take(reader.remaining), scheme: scheme)
        return Reading([Measurement(.url, .text(address)), Measurement(.txPower, Double(txPower))])
    }

    /// `20` | version `00` | battery mV u16 (0: not measured) | temperature 8.8 signed (`0x8000`: not measured) |
    /// advert count u32 | uptime u32 in 0.1 s. Version `01` is encrypted telemetry.
    static func telemetry(_ payload: [UInt8]) throws(DecodeFailure) -> Decoded {
        guard payload.count >= 2 else { throw .truncated(at: 1) }
        switch payload[1] {
        case 0x00: break
        case 0x01: return .encrypted
        default: throw .invalidValue("TLM version 0x\(Hex.byte(payload[1]))")
        }
        guard payload.count == 14 else { throw .wrongLength(payload.count, expected: [14]) }
        var reader = ByteReader(payload, offset: 2)
        let millivolts = try reader.bigEndian(2)
        let temperature = try reader.signedBigEndian(2)
        let count = try reader.bigEndian(4)
        let uptime = try reader.bigEndian(4)
        var measurements: [Measurement] = []
        if millivolts != 0 { measurements.append(Measurement(.voltage, Double(millivolts) / 1000)) }
        if temperature != -0x8000 { measurements.append(Measurement(.temperature, Double(temperature) / 256)) }
        measurements += [Measurement(.advertisementCount, Double(count)), Measurement(.uptime, Double(uptime) / 10)]
        return .reading(Reading(measurements))
    }

    /// `30` | tx power i8 | ephemeral id (8).
    static func eid(_ payload: [UInt8]) throws(DecodeFailure) -> Reading {
        guard payload.count == 10 else { throw .wrongLength(payload.count, expected: [10]) }
        var reader = ByteReader(payload, offset: 1)
        let txPower = try reader.int8()
        return Reading([Measurement(.ephemeralID, .text(Hex.string(try reader.take(8)))), Measurement(.txPower, Double(txPower))])
    }
}

/// The Eddystone-URL compression: a scheme prefix byte and expansion codes for common endings.
enum EddystoneURL {
    /// Scheme prefixes, by code.
    static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    /// Expansions for codes 0x00–0x0D.
    static let expansions = [
        ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/", ".com", ".org", ".edu", ".net", ".info", ".biz",
        ".gov",
    ]

    /// The full URL: codes 0x00–0x0D expand, 0x21–0x7E are themselves, anything else (control characters,
    /// space, DEL, non-ASCII) is not allowed in an encoded URL.
    static func expand(_ encoded: ArraySlice<UInt8>, scheme: UInt8) throws(DecodeFailure) -> String {
        var text = schemes[Int(scheme)]
        for byte in encoded {
            switch byte {
            case 0x00...0x0D: text += expansions[Int(byte)]
            case 0x21...0x7E: text.append(Character(Unicode.Scalar(byte)))
            default: throw .invalidValue("URL byte 0x\(Hex.byte(byte)) is neither printable nor an expansion code")
            }
        }
        return text
    }
}
