/// Rounds values the way a bulb stores them: as 16-bit integers.
///
/// Real bulbs truncate rather than round, which is why 0.3 reads back as
/// 0.29999237; the tiny epsilon keeps an already-quantised value stable when
/// it is written again.
enum Quantize {
    private static let steps = 65535.0
    private static let epsilon = 1e-6

    /// Quantises a 0...1 value, clamping out-of-range input.
    static func unit(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        let clamped = min(max(value, 0), 1)
        return (clamped * steps + epsilon).rounded(.down) / steps
    }

    /// Quantises a hue in degrees, clamping to 0...360.
    static func hue(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return 0 }
        let clamped = min(max(degrees, 0), 360)
        return (clamped / 360 * steps + epsilon).rounded(.down) * 360 / steps
    }

    /// Rotates a hue and wraps it into 0..<360 before quantising.
    static func rotatedHue(_ degrees: Double, by delta: Double) -> Double {
        var wrapped = (degrees + delta).truncatingRemainder(dividingBy: 360)
        if wrapped < 0 { wrapped += 360 }
        return hue(wrapped)
    }
}
