/// Brightness and colour temperature to the PWM duties of a Nova's two LED banks, and back.
///
/// - Colour temperature: the warm bank is taken as 2700 K and the cool bank as 6500 K. The share of the cool
///   bank is linear in mireds (1,000,000 / kelvin) between the two, because the colour of two mixed white
///   sources moves roughly linearly in mireds, not in kelvin: 7F,7F reads as about 3800 K, not 4600 K.
/// - Brightness: the bank with the larger share (the major bank) runs at `0x41 + (b − 1) × 190 / 254` for
///   brightness `b` in 1–255, so brightness 1 is 0x41 and 255 is 0xFF. The flash must not hold 0x01–0x40 for
///   more than a second, so no lit bank is ever below 0x41, and it is never asked to.
/// - The minor bank runs at the major duty times the ratio of the shares. When that falls below 0x41 it is
///   rounded to the nearer value the flash may hold: 0x41 from 0x21 (half of 0x41) up, else off. Near the ends
///   of the range and at low brightness the colour therefore snaps to one bank rather than dimming it
///   illegally.
public enum NovaMix {
    /// The colour temperatures of the warm and cool banks, the range a Nova light offers.
    public static let kelvinRange = 2700...6500
    /// The lowest PWM duty a lit bank may hold for longer than a second.
    public static let minimumLitPWM: UInt8 = 0x41

    static let warmMired = 1_000_000 / Double(kelvinRange.lowerBound)
    static let coolMired = 1_000_000 / Double(kelvinRange.upperBound)
    static let span = Double(UInt8.max - minimumLitPWM)

    /// The warm and cool duties for a brightness (clamped to 1–255) and a colour temperature (clamped to the range).
    public static func pwm(brightness: Int, kelvin: Int) -> (warm: UInt8, cool: UInt8) {
        let level = Double(min(max(brightness, 1), 255) - 1) / 254
        let major = (Double(minimumLitPWM) + level * span).rounded()
        let cool = coolShare(kelvin: kelvin)
        let warm = 1 - cool
        let minor = legal(major * min(warm, cool) / max(warm, cool))
        let majorPWM = UInt8(major)
        return warm >= cool ? (majorPWM, minor) : (minor, majorPWM)
    }

    /// The brightness (1–255) and colour temperature a pair of duties shows; nil when both banks are dark.
    public static func state(warm: UInt8, cool: UInt8) -> (brightness: Int, kelvin: Int)? {
        guard warm > 0 || cool > 0 else { return nil }
        let major = Double(max(warm, cool))
        let level = max(major - Double(minimumLitPWM), 0) / span
        let brightness = min(max(Int((level * 254).rounded()) + 1, 1), 255)
        let share = Double(cool) / (Double(warm) + Double(cool))
        let mired = warmMired + share * (coolMired - warmMired)
        let kelvin = min(max(Int((1_000_000 / mired).rounded()), kelvinRange.lowerBound), kelvinRange.upperBound)
        return (brightness, kelvin)
    }

    /// The cool bank's share, 0 at 2700 K to 1 at 6500 K.
    static func coolShare(kelvin: Int) -> Double {
        let clamped = min(max(kelvin, kelvinRange.lowerBound), kelvinRange.upperBound)
        let mired = 1_000_000 / Double(clamped)
        return min(max((warmMired - mired) / (warmMired - coolMired), 0), 1)
    }

    /// The nearest duty a lit bank may hold: 0, or 0x41 and up.
    static func legal(_ ideal: Double) -> UInt8 {
        let minimum = Double(minimumLitPWM)
        if ideal >= minimum { return UInt8(min(ideal.rounded(), 255)) }
        return ideal >= minimum / 2 ? minimumLitPWM : 0
    }
}
