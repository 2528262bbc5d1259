/// RuuviTag manufacturer data (company `0499`), big-endian; byte 0 is the data format. Format 5 (RAWv2, 24
/// bytes) and format 3 (RAWv1, 14 bytes) are read; a field holding its "not available" value is left out.
public enum Ruuvi {
    /// Ruuvi Innovations' company id.
    public static let company: UInt16 = 0x0499
    /// Standard gravity: the tags report acceleration in mG, published in m/s².
    static let gravity = 9.80665

    static let accelerations = ["x", "y", "z"].map {
        Quantity.acceleration.keyed("acceleration_\($0)", name: "Acceleration \($0.uppercased())")
    }

    /// Decodes formats 5 and 3; other formats (6, E1: Ruuvi Air) are undecodable here.
    public static func decode(_ data: [UInt8]) -> Decoded {
        switch data.first {
        case nil: .undecodable(.empty)
        case 5: format5(data)
        case 3: format3(data)
        case let other?: .undecodable(.unknownFrame(other))
        }
    }

    /// RAWv2: temperature s16 × 0.005 °C, humidity u16 × 0.0025 %, pressure u16 + 50 000 Pa, acceleration
    /// x, y, z s16 mG, power (11 bits battery mV − 1600, 5 bits tx power (−40 + 2n) dBm), movement counter u8,
    /// sequence u16, MAC. The sequence's low byte is the packet id, so repeats are dropped.
    static func format5(_ data: [UInt8]) -> Decoded {
        guard data.count == 24 else { return .undecodable(.wrongLength(data.count, expected: [24])) }
        var reader = ByteReader(data, offset: 1)
        do throws(DecodeFailure) {
            let temperature = try reader.bigEndian(2)
            let humidity = try reader.bigEndian(2)
            let pressure = try reader.bigEndian(2)
            let axes = [try reader.bigEndian(2), try reader.bigEndian(2), try reader.bigEndian(2)]
            let power = try reader.bigEndian(2)
            let movement = try reader.uint8()
            let sequence = try reader.bigEndian(2)
            var values: [Measurement] = []
            if temperature != 0x8000 {
                values.append(Measurement(.temperature, round(Double(Int16(truncatingIfNeeded: temperature)) * 0.005, 3)))
            }
            if humidity != 0xFFFF { values.append(Measurement(.humidity, round(Double(humidity) * 0.0025, 4))) }
            if pressure != 0xFFFF { values.append(Measurement(.pressure, Double(pressure + 50_000) / 100)) }
            for (axis, raw) in zip(accelerations, axes) where raw != 0x8000 {
                values.append(Measurement(axis, round(Double(Int16(truncatingIfNeeded: raw)) * gravity / 1000, 2)))
            }
            if power >> 5 != 0x7FF { values.append(Measurement(.voltage, Double((power >> 5) + 1600) / 1000)) }
            if power & 0x1F != 0x1F { values.append(Measurement(.txPower, Double(-40 + 2 * Int(power & 0x1F)))) }
            if movement != 0xFF { values.append(Measurement(.movementCounter, Double(movement))) }
            if sequence != 0xFFFF { values.append(Measurement(.sequence, Double(sequence))) }
            return .reading(
                Reading(
                    values, packetID: sequence == 0xFFFF ? nil : UInt8(truncatingIfNeeded: sequence),
                    model: SensorModel(manufacturer: "Ruuvi", model: "RuuviTag")))
        } catch {
            return .undecodable(error)
        }
    }

    /// RAWv1: humidity u8 × 0.5 %, temperature as a sign bit with 7 bits of °C and a byte of hundredths,
    /// pressure u16 + 50 000 Pa, acceleration x, y, z s16 mG, battery u16 mV.
    static func format3(_ data: [UInt8]) -> Decoded {
        guard data.count == 14 else { return .undecodable(.wrongLength(data.count, expected: [14])) }
        var reader = ByteReader(data, offset: 1)
        do throws(DecodeFailure) {
            let humidity = Double(try reader.uint8()) / 2
            let whole = try reader.uint8()
            let hundredths = try reader.uint8()
            let pressure = try reader.bigEndian(2)
            let axes = [try reader.bigEndian(2), try reader.bigEndian(2), try reader.bigEndian(2)]
            let millivolts = try reader.bigEndian(2)
            guard hundredths < 100 else { throw .invalidValue("temperature hundredths \(hundredths)") }
            let magnitude = Double(whole & 0x7F) + Double(hundredths) / 100
            var values = [
                Measurement(.temperature, whole & 0x80 != 0 ? -magnitude : magnitude), Measurement(.humidity, humidity),
                Measurement(.pressure, Double(pressure + 50_000) / 100),
            ]
            for (axis, raw) in zip(accelerations, axes) {
                values.append(Measurement(axis, round(Double(Int16(truncatingIfNeeded: raw)) * gravity / 1000, 2)))
            }
            values.append(Measurement(.voltage, Double(millivolts) / 1000))
            return .reading(Reading(values, model: SensorModel(manufacturer: "Ruuvi", model: "RuuviTag")))
        } catch {
            return .undecodable(error)
        }
    }

    /// `value` rounded to `places` decimals, so 7.2 reads as 7.2 rather than 7.199999….
    static func round(_ value: Double, _ places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
