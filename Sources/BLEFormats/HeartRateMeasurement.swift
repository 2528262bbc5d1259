/// Heart Rate Measurement (`2A37`): flags, heart rate, then optional energy expended and RR intervals.
///
/// | Flag bit | Meaning |
/// |---|---|
/// | 0 | heart rate is uint16 (else uint8) |
/// | 1–2 | sensor contact: `2` supported, no contact; `3` contact; otherwise not supported |
/// | 3 | energy expended uint16 (kJ) follows |
/// | 4 | RR intervals (uint16, 1/1024 s) follow, to the end of the value |
///
/// Bits 5–7 are reserved and ignored.
enum HeartRateMeasurement {
    static func decode(_ value: [UInt8]) throws(DecodeFailure) -> Reading {
        guard !value.isEmpty else { throw .empty }
        var reader = ByteReader(value)
        let flags = try reader.uint8()
        let rate = try reader.littleEndian(flags & 0x01 != 0 ? 2 : 1)
        var measurements = [Measurement(.heartRate, Double(rate))]
        if flags & 0x04 != 0 {
            measurements.append(Measurement(.sensorContact, .bool(flags & 0x02 != 0)))
        }
        if flags & 0x08 != 0 {
            measurements.append(Measurement(.energyExpended, Double(try reader.littleEndian(2))))
        }
        if flags & 0x10 != 0 {
            var intervals: [Double] = []
            while reader.remaining > 0 {
                // Seconds, rounded to the millisecond: the unit (0.98 ms) is finer than that anyway.
                intervals.append((Double(try reader.littleEndian(2)) / 1024 * 1000).rounded() / 1000)
            }
            if !intervals.isEmpty { measurements.append(Measurement(.rrIntervals, .numbers(intervals))) }
        }
        try reader.finish()
        return Reading(measurements)
    }
}
