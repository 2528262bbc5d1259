public import BLEModels

/// Decoders for the standard GATT characteristics the bridge reads and subscribes to on connect (all
/// little-endian, Bluetooth GATT Specification Supplement).
public enum StandardCharacteristic {
    /// Battery Level, `2A19`.
    public static let batteryLevel = BLEUUID(uuid16: 0x2A19)
    /// Heart Rate Measurement, `2A37`.
    public static let heartRateMeasurement = BLEUUID(uuid16: 0x2A37)
    /// Temperature, `2A6E`.
    public static let temperature = BLEUUID(uuid16: 0x2A6E)
    /// Humidity, `2A6F`.
    public static let humidity = BLEUUID(uuid16: 0x2A6F)
    /// Temperature Celsius, `2A1F` (pvvx firmware).
    public static let temperatureCelsius = BLEUUID(uuid16: 0x2A1F)
    /// The Device Information strings (service `180A`) and the state key each fills.
    public static let deviceInformation: [(uuid: BLEUUID, quantity: Quantity)] = [
        (BLEUUID(uuid16: 0x2A29), .manufacturer), (BLEUUID(uuid16: 0x2A24), .model), (BLEUUID(uuid16: 0x2A26), .firmware),
        (BLEUUID(uuid16: 0x2A27), .hardware), (BLEUUID(uuid16: 0x2A28), .software), (BLEUUID(uuid16: 0x2A25), .serial),
    ]
    /// The longest value an attribute can have.
    public static let maximumLength = 512

    /// Whether a characteristic has a decoder here.
    public static func isKnown(_ uuid: BLEUUID) -> Bool { decoder(for: uuid) != nil }

    /// Decodes a value of a known characteristic; nil for any other UUID (its value stays raw hex).
    public static func decode(_ uuid: BLEUUID, _ value: [UInt8]) -> Decoded? {
        guard let decoder = decoder(for: uuid) else { return nil }
        guard value.count <= maximumLength else { return .undecodable(.tooLong(value.count)) }
        do throws(DecodeFailure) {
            return .reading(try decoder(value))
        } catch {
            return .undecodable(error)
        }
    }

    private static func decoder(for uuid: BLEUUID) -> ((([UInt8]) throws(DecodeFailure) -> Reading))? {
        switch uuid {
        case batteryLevel: return decodeBattery
        case heartRateMeasurement: return HeartRateMeasurement.decode
        case temperature: return decodeTemperature
        case humidity: return decodeHumidity
        case temperatureCelsius: return decodeTemperatureCelsius
        default:
            guard let quantity = deviceInformation.first(where: { $0.uuid == uuid })?.quantity else { return nil }
            return { (value: [UInt8]) throws(DecodeFailure) -> Reading in try decodeText(value, quantity) }
        }
    }

    /// uint8, 0–100 %.
    static func decodeBattery(_ value: [UInt8]) throws(DecodeFailure) -> Reading {
        let level = try single(value, size: 1) { reader throws(DecodeFailure) in try reader.uint8() }
        guard level <= 100 else { throw .invalidValue("battery level \(level) % is above 100 %") }
        return Reading([Measurement(.battery, Double(level))])
    }

    /// sint16 × 0.01 °C; `0x8000` is "unknown".
    static func decodeTemperature(_ value: [UInt8]) throws(DecodeFailure) -> Reading {
        let raw = try single(value, size: 2) { reader throws(DecodeFailure) in try reader.signedLittleEndian(2) }
        guard raw != -0x8000 else { throw .notAvailable }
        return Reading([Measurement(.temperature, Double(raw) / 100)])
    }

    /// uint16 × 0.01 %; `0xFFFF` is "unknown".
    static func decodeHumidity(_ value: [UInt8]) throws(DecodeFailure) -> Reading {
        let raw = try single(value, size: 2) { reader throws(DecodeFailure) in try reader.littleEndian(2) }
        guard raw != 0xFFFF else { throw .notAvailable }
        guard raw <= 10_000 else { throw .invalidValue("humidity \(Double(raw) / 100) % is above 100 %") }
        return Reading([Measurement(.humidity, Double(raw) / 100)])
    }

    /// sint16 × 0.1 °C.
    static func decodeTemperatureCelsius(_ value: [UInt8]) throws(DecodeFailure) -> Reading {
        let raw = try single(value, size: 2) { reader throws(DecodeFailure) in try reader.signedLittleEndian(2) }
        return Reading([Measurement(.temperature, Double(raw) / 10)])
    }

    /// UTF-8 without a terminator, cut at the first NUL (some devices pad with them); invalid sequences become
    /// U+FFFD rather than refusing the whole string. An empty string has nothing to show.
    static func decodeText(_ value: [UInt8], _ quantity: Quantity) throws(DecodeFailure) -> Reading {
        let bytes = value.prefix { $0 != 0 }
        guard !bytes.isEmpty else { throw value.isEmpty ? .empty : .invalidValue("nothing before the first NUL") }
        return Reading([Measurement(quantity, .text(String(decoding: bytes, as: UTF8.self)))])
    }

    /// One fixed-size field that must be the whole value.
    private static func single<T>(
        _ value: [UInt8], size: Int, _ read: (inout ByteReader) throws(DecodeFailure) -> T
    ) throws(DecodeFailure) -> T {
        guard !value.isEmpty else { throw .empty }
        guard value.count == size else { throw .wrongLength(value.count, expected: [size]) }
        var reader = ByteReader(value)
        return try read(&reader)
    }
}
