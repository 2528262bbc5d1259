/// Thermometers whose "company id" is really their first two data bytes, so every reading arrives under a new
/// id and BlueZ's `ManufacturerData` keeps them all: only the most recently changed id is the current
/// reading. The payload is rebuilt as the id (little-endian) followed by the data.
public enum CompanyIDData {
    /// The rebuilt payload.
    static func rebuild(_ company: UInt16, _ data: [UInt8]) -> [UInt8] {
        [UInt8(company & 0xFF), UInt8(company >> 8)] + data
    }
}

/// ThermoPro hygrometers (TP357, TP357S, TP358, TP359, TP393, TP397), recognised by their local name `TP35…` or
/// `TP39…`. Rebuilt: temperature s16 × 0.1 °C at 1–2, humidity % at 3, battery code (0, 1, 2: 1, 50, 100 %)
/// in the low two bits of 4; `FF FF FF` is "no reading".
public enum ThermoPro {
    /// Whether a local name is a ThermoPro hygrometer's.
    public static func matches(name: String?) -> Bool {
        guard let name else { return false }
        return name.hasPrefix("TP35") || name.hasPrefix("TP39")
    }

    /// Decodes the data under the most recently changed company id.
    public static func decode(company: UInt16, _ data: [UInt8], name: String) -> Decoded {
        let bytes = CompanyIDData.rebuild(company, data)
        guard bytes.count >= 6 else { return .undecodable(.wrongLength(data.count, expected: [4, 5])) }
        let model = SensorModel(manufacturer: "ThermoPro", model: String(name.prefix { $0 != " " }))
        let levels: [UInt8: Double] = [0: 1, 1: 50, 2: 100]
        var values: [Measurement] = []
        if bytes[1...3] != [0xFF, 0xFF, 0xFF] {
            let temperature = Int16(bitPattern: UInt16(bytes[1]) | UInt16(bytes[2]) << 8)
            guard bytes[3] <= 100 else { return .undecodable(.invalidValue("humidity \(bytes[3]) % is above 100 %")) }
            values += [Measurement(.temperature, Double(temperature) / 10), Measurement(.humidity, Double(bytes[3]))]
        }
        if let battery = levels[bytes[4] & 0x03] { values.append(Measurement(.battery, battery)) }
        return .reading(Reading(values, model: model))
    }
}

/// Inkbird IBS-TH (local name `sps`) and IBS-TH2 (`tps`). Rebuilt, 9 bytes: temperature s16 × 0.01 °C, humidity
/// u16 × 0.01 % (the IBS-TH2 without a humidity probe sends 0), two bytes, a checksum byte, another byte, then
/// the battery %.
public enum Inkbird {
    /// Whether a local name is an IBS-TH's or IBS-TH2's.
    public static func matches(name: String?) -> Bool { name == "sps" || name == "tps" }

    /// Decodes the data under the most recently changed company id.
    public static func decode(company: UInt16, _ data: [UInt8], name: String) -> Decoded {
        let bytes = CompanyIDData.rebuild(company, data)
        guard bytes.count == 9 else { return .undecodable(.wrongLength(data.count, expected: [7])) }
        let temperature = Int16(bitPattern: UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        let humidity = Double(UInt16(bytes[2]) | UInt16(bytes[3]) << 8) / 100
        guard humidity <= 100, bytes[7] <= 100 else { return .undecodable(.invalidValue("humidity or battery above 100 %")) }
        var values = [Measurement(.temperature, Double(temperature) / 100)]
        if name == "sps" || humidity != 0 { values.append(Measurement(.humidity, humidity)) }
        values.append(Measurement(.battery, Double(bytes[7])))
        let model = SensorModel(manufacturer: "Inkbird", model: name == "sps" ? "IBS-TH" : "IBS-TH2")
        return .reading(Reading(values, model: model))
    }
}
