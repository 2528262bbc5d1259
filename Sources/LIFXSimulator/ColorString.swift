/// The HSBK components a LIFX colour string names; nil components are left unchanged.
public struct ParsedColor: Sendable, Equatable {
    /// Hue in degrees.
    public var hue: Double?
    /// Saturation, 0...1.
    public var saturation: Double?
    /// Brightness, 0...1.
    public var brightness: Double?
    /// Colour temperature in kelvin.
    public var kelvin: Int?

    /// Creates a parsed colour.
    public init(hue: Double? = nil, saturation: Double? = nil, brightness: Double? = nil, kelvin: Int? = nil) {
        self.hue = hue
        self.saturation = saturation
        self.brightness = brightness
        self.kelvin = kelvin
    }
}

/// Why a colour string was rejected; `message` is shown to API clients.
public struct ColorStringError: Error, Sendable, Equatable {
    /// Human-readable reason.
    public var message: String
}

/// Parser for LIFX colour strings such as `"blue saturation:0.5"` or `"kelvin:2700"`.
public enum ColorString {
    /// Hues of the named colours as given by LIFX staff; all are fully saturated.
    static let namedHues: [String: Double] = [
        "red": 0, "orange": 36, "yellow": 60, "green": 120,
        "cyan": 180, "blue": 250, "purple": 280, "pink": 325,
    ]

    /// Parses a space-separated colour string; later components override earlier ones.
    public static func parse(_ text: String) throws(ColorStringError) -> ParsedColor {
        let tokens = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard !tokens.isEmpty else { throw ColorStringError(message: "color string is empty") }
        var color = ParsedColor()
        for token in tokens {
            try apply(String(token), to: &color)
        }
        return color
    }

    private static func apply(_ token: String, to color: inout ParsedColor) throws(ColorStringError) {
        if token == "white" {
            color.saturation = 0
        } else if let hue = namedHues[token] {
            color.hue = hue
            color.saturation = 1
        } else if token == "random" {
            color.hue = Double.random(in: 0..<360)
            color.saturation = 1
        } else if token.hasPrefix("#") {
            try applyRGB(hex(token.dropFirst(), token), to: &color)
        } else if token.hasPrefix("hex:") {
            let digits = token.dropFirst(4)
            try applyRGB(hex(digits.hasPrefix("#") ? digits.dropFirst() : digits, token), to: &color)
        } else if let value = token.value(after: "rgb:") {
            try applyRGB(rgbTriple(value, token), to: &color)
        } else if let value = token.value(after: "hue:") {
            color.hue = try number(value, in: 0...360, token)
        } else if let value = token.value(after: "saturation:") {
            color.saturation = try number(value, in: 0...1, token)
        } else if let value = token.value(after: "brightness:") {
            color.brightness = try number(value, in: 0...1, token)
        } else if let value = token.value(after: "kelvin:") {
            color.kelvin = Int(try number(value, in: 1500...9000, token).rounded())
            color.saturation = 0
        } else {
            throw ColorStringError(message: "Unable to parse color: unknown component '\(token)'")
        }
    }

    private static func number(
        _ text: Substring, in range: ClosedRange<Double>, _ token: String
    ) throws(ColorStringError) -> Double {
        guard let value = Double(text), value.isFinite else {
            throw ColorStringError(message: "Unable to parse color: '\(token)' is not a number")
        }
        guard range.contains(value) else {
            let bounds = "\(range.lowerBound.compact)-\(range.upperBound.compact)"
            throw ColorStringError(message: "Unable to parse color: '\(token)' is outside \(bounds)")
        }
        return value
    }

    private static func hex(_ digits: Substring, _ token: String) throws(ColorStringError) -> [Double] {
        guard digits.count == 6, let packed = UInt32(digits, radix: 16) else {
            throw ColorStringError(message: "Unable to parse color: '\(token)' is not #RRGGBB")
        }
        return [packed >> 16, packed >> 8, packed].map { Double($0 & 0xff) }
    }

    private static func rgbTriple(_ text: Substring, _ token: String) throws(ColorStringError) -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let values = parts.compactMap { Int($0) }.filter { (0...255).contains($0) }
        guard parts.count == 3, values.count == 3 else {
            throw ColorStringError(message: "Unable to parse color: '\(token)' is not rgb:R,G,B with 0-255")
        }
        return values.map(Double.init)
    }

    /// Converts 0...255 RGB into hue, saturation and brightness (HSV).
    private static func applyRGB(_ rgb: [Double], to color: inout ParsedColor) {
        let (red, green, blue) = (rgb[0] / 255, rgb[1] / 255, rgb[2] / 255)
        let high = max(red, green, blue)
        let delta = high - min(red, green, blue)
        var hue = 0.0
        if delta > 0 {
            switch high {
            case red: hue = 60 * ((green - blue) / delta).truncatingRemainder(dividingBy: 6)
            case green: hue = 60 * ((blue - red) / delta + 2)
            default: hue = 60 * ((red - green) / delta + 4)
            }
        }
        color.hue = hue < 0 ? hue + 360 : hue
        color.saturation = high == 0 ? 0 : delta / high
        color.brightness = high
    }
}

extension String {
    /// The text after `prefix`, or nil when the string does not start with it.
    func value(after prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}

extension Double {
    /// Prints integral values without a trailing ".0" for friendlier messages.
    var compact: String {
        rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
