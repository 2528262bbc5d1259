/// Colour modes as Home Assistant names them.
public enum ColorMode: String, Sendable, Hashable, Codable, CaseIterable {
    case onoff, brightness, hs
    case colorTemp = "color_temp"
}

/// What a light can do.
public struct LightFeatures: Sendable, Hashable {
    /// Colour modes beyond on/off; empty means on/off only.
    public var colorModes: [ColorMode]
    /// Whether brightness can be set.
    public var brightness: Bool
    /// Colour temperature range in kelvin, when `colorTemp` is supported.
    public var kelvinRange: ClosedRange<Int>?
    /// Effect names accepted by `effect`.
    public var effects: [String]
    /// Whether a transition time is honoured.
    public var transition: Bool

    /// Creates light features.
    public init(
        colorModes: [ColorMode], brightness: Bool = true, kelvinRange: ClosedRange<Int>? = nil,
        effects: [String] = [], transition: Bool = true
    ) {
        self.colorModes = colorModes
        self.brightness = brightness
        self.kelvinRange = kelvinRange
        self.effects = effects
        self.transition = transition
    }

    /// The modes to announce to Home Assistant: `onoff` or `brightness` stand alone, as its schema demands.
    public var supportedColorModes: [ColorMode] {
        let modes = colorModes.filter { $0 == .hs || $0 == .colorTemp }
        if !modes.isEmpty { return modes }
        return brightness ? [.brightness] : [.onoff]
    }

    /// The features as `bridge/devices` lists them, with flat kelvin bounds.
    public var json: JSONValue {
        var entry: [String: JSONValue] = [
            "color_modes": .array(supportedColorModes.map { .string($0.rawValue) }), "brightness": .bool(brightness),
            "effects": .array(effects.map(JSONValue.string)), "transition": .bool(transition),
        ]
        if let kelvinRange {
            entry["min_kelvin"] = .number(Double(kelvinRange.lowerBound))
            entry["max_kelvin"] = .number(Double(kelvinRange.upperBound))
        }
        return .object(entry)
    }
}
