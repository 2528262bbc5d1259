import Support

/// iBeacon: Apple's manufacturer data (`ManufacturerData[0x004C]`) of type `02`, length `15`: proximity UUID,
/// major, minor (big-endian) and the calibrated RSSI at 1 m. Apple's other manufacturer-data types (AirDrop,
/// Handoff, AirPods, Find My: "continuity" adverts) are not iBeacons and are not decoded at all.
public enum IBeacon {
    /// Apple's company id.
    public static let company: UInt16 = 0x004C
    /// The iBeacon type byte and its length byte.
    static let header: [UInt8] = [0x02, 0x15]
    /// The full payload length.
    public static let length = 23

    /// Whether Apple manufacturer data claims to be an iBeacon (type `02`); anything else is continuity.
    public static func claims(_ payload: [UInt8]) -> Bool { payload.first == header[0] }

    /// Decodes an iBeacon payload; nil when it is not one (empty, or another Apple type). With `rssi`, adds
    /// the distance estimated from it (`estimatedDistance`).
    public static func decode(_ payload: [UInt8], rssi: Int? = nil) -> Decoded? {
        guard claims(payload) else { return nil }
        guard payload.count >= 2, payload[1] == header[1] else {
            guard payload.count >= 2 else { return .undecodable(.truncated(at: 1)) }
            return .undecodable(.invalidValue("iBeacon length byte 0x\(Hex.byte(payload[1])), not 0x15"))
        }
        guard payload.count == length else { return .undecodable(.wrongLength(payload.count, expected: [length])) }
        var reader = ByteReader(payload, offset: 2)
        do throws(DecodeFailure) {
            let uuid = uuidString(try reader.take(16))
            let major = try reader.bigEndian(2)
            let minor = try reader.bigEndian(2)
            let txPower = Int(try reader.int8())
            var measurements = [
                Measurement(.beaconUUID, .text(uuid)), Measurement(.major, Double(major)), Measurement(.minor, Double(minor)),
                Measurement(.txPower, Double(txPower)),
            ]
            if let rssi, let distance = estimatedDistance(rssi: rssi, txPower: txPower) {
                measurements.append(Measurement(.estimatedDistance, distance))
            }
            return .reading(Reading(measurements))
        } catch {
            return .undecodable(error)
        }
    }

    /// Distance in metres by the log-distance path-loss model, `10 ^ ((txPower − rssi) / (10 × n))`, rounded to
    /// centimetres; `n` is 2 in free space and up to 4 indoors. Nil for RSSI 127 ("no reading"), a calibrated
    /// power that is not negative (unset), or an RSSI outside −127…20 dBm.
    public static func estimatedDistance(rssi: Int, txPower: Int, pathLossExponent n: Double = 2) -> Double? {
        guard rssi != 127, (-127...20).contains(rssi), txPower < 0, n > 0, n.isFinite else { return nil }
        let metres = pow10(Double(txPower - rssi) / (10 * n))
        return (metres * 100).rounded() / 100
    }

    /// A UUID in its usual lowercase 8-4-4-4-12 form.
    static func uuidString(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Hex.string(bytes)
        var text = ""
        for (index, character) in digits.enumerated() {
            if [8, 12, 16, 20].contains(index) { text.append("-") }
            text.append(character)
        }
        return text
    }

    /// 10 to the power `exponent`, without Foundation: whole powers by multiplication, the fraction by the
    /// exponential series of `x · ln 10`, exact to well below a centimetre over the range used.
    static func pow10(_ exponent: Double) -> Double {
        let whole = exponent.rounded(.down)
        var result = 1.0
        let steps = Int(min(abs(whole), 400))
        for _ in 0..<steps { result = whole >= 0 ? result * 10 : result / 10 }
        let x = (exponent - whole) * 2.302585092994046
        var term = 1.0, sum = 1.0
        for k in 1...30 {
            term *= x / Double(k)
            sum += term
        }
        return result * sum
    }
}
