/// Govee thermo-hygrometers, by company id and length of their manufacturer data. Two layouts: a 24-bit
/// big-endian packed value (bit 23 the sign; |v| / 1000 is tenths of °C, |v| mod 1000 tenths of %) with a
/// battery byte whose bit 7 flags a sensor error, and little-endian int16 °C × 100, uint16 % × 100, uint8
/// battery.
public enum Govee {
    /// H5072, H5074, H5075, H5129, H5051, H5052, H5071.
    public static let companyEC88: UInt16 = 0xEC88
    /// H5100–H5105, H5108, H5110, H5174, H5177, GV5179 (company id 0x0001, so the local name must say Govee).
    public static let company0001: UInt16 = 0x0001
    /// H5179.
    public static let company8801: UInt16 = 0x8801

    /// Decodes a Govee payload; nil when the company id, length and local name are no Govee thermometer's.
    public static func decode(company: UInt16, _ data: [UInt8], name: String?) -> Decoded? {
        let named = model(fromName: name)
        // The H5106 air quality monitor packs PM2.5 into the same bytes.
        guard named != "H5106" else { return nil }
        switch (company, data.count) {
        case (companyEC88, 6):
            return packed(Array(data[1..<5]), model: named ?? "H5072/H5075")
        case (companyEC88, 7):
            return littleEndian(Array(data[1..<6]), model: "H5074")
        case (companyEC88, 9):
            return littleEndian(Array(data[1..<6]), model: named ?? "H5051")
        case (company0001, 6) where named != nil, (company0001, 8) where named != nil:
            return packed(Array(data[2..<6]), model: named ?? "H5108")
        case (company8801, 9):
            return littleEndian(Array(data[4..<9]), model: named ?? "H5179")
        default:
            return nil
        }
    }

    /// The model in a Govee local name (`GVH5075_2762`, `Govee_H5179_3CD5`, `GV51085242`): `H` or `B` and four
    /// digits; nil for names that are not Govee's.
    static func model(fromName name: String?) -> String? {
        guard let name, name.hasPrefix("GV") || name.hasPrefix("Govee") else { return nil }
        let characters = Array(name)
        for index in characters.indices where index + 5 <= characters.count {
            let digits = characters[(index + 1)..<(index + 5)]
            if characters[index] == "H" || characters[index] == "B", digits.allSatisfy(\.isASCII),
                digits.allSatisfy(\.isNumber)
            {
                return String(characters[index..<(index + 5)])
            }
        }
        // GV51085242: the model's digits follow GV without a letter.
        if name.hasPrefix("GV5"), characters.count >= 6, characters[2..<6].allSatisfy(\.isNumber) {
            return "H" + String(characters[2..<6])
        }
        return nil
    }

    /// Three bytes of packed value and the battery byte. A sensor error, or a temperature outside −40…100 °C,
    /// leaves temperature and humidity out and reports `problem`.
    static func packed(_ bytes: [UInt8], model: String) -> Decoded {
        let raw = Int(bytes[0]) << 16 | Int(bytes[1]) << 8 | Int(bytes[2])
        let magnitude = raw & 0x7F_FFFF
        let temperature = Double(magnitude / 1000) / 10 * (raw & 0x80_0000 != 0 ? -1 : 1)
        let humidity = Double(magnitude % 1000) / 10
        let battery = Double(bytes[3] & 0x7F)
        let error = bytes[3] & 0x80 != 0 || !(-40...100).contains(temperature)
        var values: [Measurement] = []
        if !error { values += [Measurement(.temperature, temperature), Measurement(.humidity, humidity)] }
        values += [Measurement(.battery, battery), Measurement(.problem, .bool(error))]
        return .reading(Reading(values, model: SensorModel(manufacturer: "Govee", model: model)))
    }

    /// int16 °C × 100, uint16 % × 100 and the battery, little-endian.
    static func littleEndian(_ bytes: [UInt8], model: String) -> Decoded {
        var reader = ByteReader(bytes)
        do throws(DecodeFailure) {
            let temperature = Double(try reader.signedLittleEndian(2)) / 100
            let humidity = Double(try reader.littleEndian(2)) / 100
            let battery = Double(try reader.uint8())
            guard humidity <= 100, battery <= 100 else { throw .invalidValue("humidity or battery above 100 %") }
            return .reading(
                Reading(
                    [Measurement(.temperature, temperature), Measurement(.humidity, humidity), Measurement(.battery, battery)],
                    model: SensorModel(manufacturer: "Govee", model: model)))
        } catch {
            return .undecodable(error)
        }
    }
}
