public import BLEModels
public import Support

/// The custom firmware formats of Xiaomi LYWSD03MMC thermometers (`ServiceData["0000181a-…"]`), told apart by
/// length: atc1441 (13 bytes, big-endian, MAC in normal order) and pvvx (15 bytes, little-endian, MAC
/// reversed). Both begin with the sender's MAC: when the sender's address is known and differs, the bytes
/// are some other use of the Environmental Sensing service data, and are not read.
public enum XiaomiCustom {
    /// The service data UUID, `181A` (Environmental Sensing).
    public static let service = BLEUUID(uuid16: 0x181A)
    /// The atc1441 payload length.
    public static let atcLength = 13
    /// The pvvx custom payload length.
    public static let pvvxLength = 15

    /// The format a payload of this length would be: atc1441 for 13 bytes or fewer, pvvx above.
    public static func format(ofLength length: Int) -> PassiveFormat { length <= atcLength ? .atc : .pvvx }

    /// atc1441: MAC[6] | temperature s16 BE × 0.1 °C | humidity u8 % | battery u8 % | battery mV u16 BE | counter u8.
    public static func decodeATC(_ payload: [UInt8], sender: BluetoothAddress? = nil) -> Decoded {
        guard payload.count == atcLength else {
            return .undecodable(payload.isEmpty ? .empty : .wrongLength(payload.count, expected: [atcLength]))
        }
        var reader = ByteReader(payload)
        do throws(DecodeFailure) {
            try checkMAC(try reader.take(6), reversed: false, sender: sender)
            let temperature = Double(try reader.signedBigEndian(2)) / 10
            let humidity = try reader.uint8()
            let battery = try reader.uint8()
            let millivolts = try reader.bigEndian(2)
            let counter = try reader.uint8()
            try checkPercent(Double(humidity), "humidity")
            try checkPercent(Double(battery), "battery")
            return .reading(reading(temperature, Double(humidity), Double(battery), millivolts, counter))
        } catch {
            return .undecodable(error)
        }
    }

    /// pvvx: MAC[6] reversed | temperature s16 × 0.01 °C | humidity u16 × 0.01 % | battery mV u16 | battery u8 % |
    /// counter u8 | flags u8, all little-endian. The flags (GPIO and trigger states) are not published.
    public static func decodePVVX(_ payload: [UInt8], sender: BluetoothAddress? = nil) -> Decoded {
        guard payload.count == pvvxLength else {
            return .undecodable(payload.isEmpty ? .empty : .wrongLength(payload.count, expected: [pvvxLength]))
        }
        var reader = ByteReader(payload)
        do throws(DecodeFailure) {
            try checkMAC(try reader.take(6), reversed: true, sender: sender)
            let temperature = Double(try reader.signedLittleEndian(2)) / 100
            let humidity = Double(try reader.littleEndian(2)) / 100
            let millivolts = try reader.littleEndian(2)
            let battery = try reader.uint8()
            let counter = try reader.uint8()
            _ = try reader.uint8()
            try checkPercent(humidity, "humidity")
            try checkPercent(Double(battery), "battery")
            return .reading(reading(temperature, humidity, Double(battery), millivolts, counter))
        } catch {
            return .undecodable(error)
        }
    }

    private static func reading(
        _ temperature: Double, _ humidity: Double, _ battery: Double, _ millivolts: UInt32, _ counter: UInt8
    ) -> Reading {
        Reading(
            [
                Measurement(.temperature, temperature), Measurement(.humidity, humidity), Measurement(.battery, battery),
                Measurement(.voltage, Double(millivolts) / 1000),
            ], packetID: counter)
    }

    private static func checkMAC(_ bytes: ArraySlice<UInt8>, reversed: Bool, sender: BluetoothAddress?) throws(DecodeFailure) {
        let ordered = reversed ? Array(bytes.reversed()) : Array(bytes)
        let address = BluetoothAddress(value: ordered.reduce(0) { $0 << 8 | UInt64($1) })
        if let sender, sender != address { throw .addressMismatch(address) }
    }

    private static func checkPercent(_ value: Double, _ name: String) throws(DecodeFailure) {
        guard value <= 100 else { throw .invalidValue("\(name) \(value) % is above 100 %") }
    }
}
