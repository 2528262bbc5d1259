public import BridgeCore
import FoundationEssentials
import Glibc

/// A change to one or more lights in LIFX terms: the body of `PUT /lights/:selector/state`
/// and of one entry of `PUT /lights/states`.
public struct LIFXStateChange: Sendable, Equatable {
    public var power: Bool?
    /// 0–1.
    public var brightness: Double?
    /// Degrees.
    public var hue: Double?
    /// 0–1.
    public var saturation: Double?
    /// Setting kelvin also sets saturation to 0, as the API's `kelvin:` colour does.
    public var kelvin: Int?
    /// Seconds.
    public var duration: Double?

    /// Creates a change.
    public init(
        power: Bool? = nil, brightness: Double? = nil, hue: Double? = nil, saturation: Double? = nil,
        kelvin: Int? = nil, duration: Double? = nil
    ) {
        self.power = power
        self.brightness = brightness
        self.hue = hue
        self.saturation = saturation
        self.kelvin = kelvin
        self.duration = duration
    }

    /// Translates a Home Assistant light command; `current` resolves `TOGGLE` into on or off.
    public init(_ command: LightCommand, currentPower: Bool) {
        switch command.power {
        case .on: power = true
        case .off: power = false
        case .toggle: power = !currentPower
        case nil: power = (command.brightness ?? 0) > 0 ? true : nil
        }
        brightness = command.brightness.map { Self.round(Double($0) / 255, places: 4) }
        if let color = command.color {
            hue = color.hue
            saturation = Self.round(color.saturation / 100, places: 4)
        }
        if let kelvin = command.kelvin {
            self.kelvin = kelvin
            hue = nil
            saturation = nil
        }
        duration = command.transition
    }

    /// Whether nothing would change.
    public var isEmpty: Bool { power == nil && brightness == nil && hue == nil && saturation == nil && kelvin == nil }

    /// Overlays a later change: later values win, and a colour replaces a colour temperature and vice versa.
    public func merged(with later: LIFXStateChange) -> LIFXStateChange {
        var result = self
        if let power = later.power { result.power = power }
        if let brightness = later.brightness { result.brightness = brightness }
        if later.hue != nil || later.saturation != nil {
            result.kelvin = nil
            result.hue = later.hue ?? result.hue
            result.saturation = later.saturation ?? result.saturation
        }
        if let kelvin = later.kelvin {
            result.kelvin = kelvin
            result.hue = nil
            result.saturation = nil
        }
        if let duration = later.duration { result.duration = duration }
        return result
    }

    /// The API colour string: `hue:H saturation:S` or `kelvin:K`.
    public var colorString: String? {
        if let kelvin { return "kelvin:\(kelvin)" }
        var parts: [String] = []
        if let hue { parts.append("hue:\(Self.format(hue))") }
        if let saturation { parts.append("saturation:\(Self.format(saturation))") }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// The JSON body; `selector` is included for batch entries.
    public func body(selector: String? = nil) -> JSONValue {
        var body: [String: JSONValue] = [:]
        if let selector { body["selector"] = .string(selector) }
        if let power { body["power"] = .string(power ? "on" : "off") }
        if let brightness { body["brightness"] = .number(brightness) }
        if let colorString { body["color"] = .string(colorString) }
        if let duration { body["duration"] = .number(duration) }
        return .object(body)
    }

    /// The light as it will be once the change is applied (the optimistic state).
    public func applied(to light: LIFXLight) -> LIFXLight {
        var result = light
        if let power { result.power = power }
        if let brightness { result.brightness = brightness }
        if let hue { result.color.hue = hue }
        if let saturation { result.color.saturation = saturation }
        if let kelvin {
            result.color.kelvin = kelvin
            result.color.saturation = 0
        }
        return result
    }

    static func round(_ value: Double, places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }

    static func format(_ value: Double) -> String {
        let rounded = round(value, places: 4)
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
