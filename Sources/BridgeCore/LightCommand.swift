import FoundationEssentials
import Support

/// A Home Assistant JSON-schema light command, validated against what the light can do.
public struct LightCommand: Sendable, Equatable {
    /// The requested power change.
    public enum Power: String, Sendable, Equatable { case on = "ON", off = "OFF", toggle = "TOGGLE" }

    /// Hue 0–360 and saturation 0–100, as Home Assistant sends them.
    public struct HueSaturation: Sendable, Equatable {
        public var hue: Double
        public var saturation: Double
        /// Creates a colour.
        public init(hue: Double, saturation: Double) {
            self.hue = hue
            self.saturation = saturation
        }
    }

    public var power: Power?
    /// 0–255.
    public var brightness: Int?
    public var color: HueSaturation?
    /// Colour temperature in kelvin, whatever unit the sender used.
    public var kelvin: Int?
    /// Seconds.
    public var transition: Double?
    public var effect: String?
    /// Home Assistant's `flash`: a short or long blink.
    public var flash: Flash?

    /// The length of a flash.
    public enum Flash: String, Sendable, Equatable { case short, long }

    /// Creates a command; every field is optional.
    public init(
        power: Power? = nil, brightness: Int? = nil, color: HueSaturation? = nil, kelvin: Int? = nil,
        transition: Double? = nil, effect: String? = nil
    ) {
        self.power = power
        self.brightness = brightness
        self.color = color
        self.kelvin = kelvin
        self.transition = transition
        self.effect = effect
    }

    /// Whether the command changes nothing.
    public var isEmpty: Bool {
        power == nil && brightness == nil && color == nil && kelvin == nil && effect == nil && flash == nil
    }

    /// The keys this command understands.
    public static let keys: Set<String> = ["state", "brightness", "color", "color_temp", "transition", "effect", "flash"]

    /// Parses the light part of a `/set` payload.
    public static func parse(_ fields: [String: JSONValue], features: LightFeatures) throws(CommandError) -> LightCommand {
        var command = LightCommand()
        if let value = fields["state"] { command.power = try parsePower(value) }
        if let value = fields["brightness"] {
            guard features.brightness else { throw CommandError("this light has no brightness control") }
            command.brightness = Int(try number(value, "brightness", in: 0...255).rounded())
        }
        if let value = fields["color"] {
            guard features.colorModes.contains(.hs) else { throw CommandError("this light has no colour, only white") }
            command.color = try parseColor(value)
        }
        if let value = fields["color_temp"] {
            guard let range = features.kelvinRange, features.colorModes.contains(.colorTemp) else {
                throw CommandError("this light has no colour temperature control")
            }
            command.kelvin = try parseKelvin(value, range: range)
        }
        if let value = fields["transition"] {
            command.transition = try number(value, "transition", in: 0...86_400)
        }
        if let value = fields["effect"] {
            guard let name = value.stringValue else { throw CommandError("effect must be a string") }
            guard let match = features.effects.first(where: { $0.lowercased() == name.lowercased() }) else {
                let known = features.effects.isEmpty ? "none" : features.effects.joined(separator: ", ")
                throw CommandError("unknown effect \"\(name)\" (known: \(known))")
            }
            command.effect = match
        }
        if let value = fields["flash"] {
            guard let text = value.stringValue, let flash = Flash(rawValue: text.lowercased()) else {
                throw CommandError("flash must be short or long, not \(value.brief)")
            }
            command.flash = flash
        }
        return command
    }

    /// Accepts `ON`, `OFF` and `TOGGLE` in any case.
    public static func parsePower(_ value: JSONValue) throws(CommandError) -> Power {
        if let text = value.stringValue, let power = Power(rawValue: text.uppercased()) { return power }
        if let flag = value.boolValue { return flag ? .on : .off }
        throw CommandError("state must be ON, OFF or TOGGLE, not \(value.brief)")
    }

    private static func parseColor(_ value: JSONValue) throws(CommandError) -> HueSaturation {
        guard let object = value.objectValue else { throw CommandError("color must be an object like {\"h\":120,\"s\":80}") }
        if let h = object["h"] ?? object["hue"], let s = object["s"] ?? object["saturation"] {
            return HueSaturation(hue: try number(h, "color.h", in: 0...360), saturation: try number(s, "color.s", in: 0...100))
        }
        if let r = object["r"], let g = object["g"], let b = object["b"] {
            return ColorConversion.hueSaturation(
                red: try number(r, "color.r", in: 0...255), green: try number(g, "color.g", in: 0...255),
                blue: try number(b, "color.b", in: 0...255))
        }
        throw CommandError("color needs h (0–360) and s (0–100), or r, g and b (0–255)")
    }

    /// Values under 1000 are mireds, the rest kelvin; both end up in kelvin within the light's range.
    private static func parseKelvin(_ value: JSONValue, range: ClosedRange<Int>) throws(CommandError) -> Int {
        let raw = try number(value, "color_temp", in: 1...100_000)
        let kelvin = raw < 1000 ? 1_000_000 / raw : raw
        let slack = Double(range.upperBound - range.lowerBound) * 0.05 + 50
        guard kelvin >= Double(range.lowerBound) - slack, kelvin <= Double(range.upperBound) + slack else {
            throw CommandError(
                "color_temp \(Int(raw)) is outside this light's range of \(range.lowerBound)–\(range.upperBound) K "
                    + "(\(1_000_000 / range.upperBound)–\(1_000_000 / range.lowerBound) mireds)")
        }
        return min(max(Int(kelvin.rounded()), range.lowerBound), range.upperBound)
    }

    /// Reads a number (or a numeric string) inside a range.
    public static func number(_ value: JSONValue, _ name: String, in range: ClosedRange<Double>) throws(CommandError)
        -> Double
    {
        let parsed: Double? =
            switch value {
            case .number(let number): number
            case .string(let text): Double(text.trimmingWhitespace())
            default: nil
            }
        guard let number = parsed, number.isFinite else { throw CommandError("\(name) must be a number, not \(value.brief)") }
        guard range.contains(number) else {
            throw CommandError("\(name) \(value.brief) is out of range \(format(range.lowerBound))–\(format(range.upperBound))")
        }
        return number
    }

    private static func format(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}

/// Colour-space conversions shared by light drivers.
public enum ColorConversion {
    /// Converts 0–255 RGB to hue 0–360 and saturation 0–100.
    public static func hueSaturation(red: Double, green: Double, blue: Double) -> LightCommand.HueSaturation {
        let r = red / 255, g = green / 255, b = blue / 255
        let maximum = max(r, g, b), minimum = min(r, g, b), delta = maximum - minimum
        var hue = 0.0
        if delta > 0 {
            if maximum == r {
                hue = 60 * ((g - b) / delta).truncatingRemainder(dividingBy: 6)
            } else if maximum == g {
                hue = 60 * ((b - r) / delta + 2)
            } else {
                hue = 60 * ((r - g) / delta + 4)
            }
        }
        if hue < 0 { hue += 360 }
        let saturation = maximum == 0 ? 0 : delta / maximum * 100
        return .init(hue: hue, saturation: saturation)
    }
}
