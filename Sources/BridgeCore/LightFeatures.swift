/// Colour modes as Home Assistant names them.
public enum ColorMode: String, Sendable, Hashable, Codable, CaseIterable {
    case onoff, brightness, hs
    case colorTemp = "color_temp"
}

/// What a light can do.
public struct LightFeatures: Sendable, Hashable, Encodable {
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

    private enum CodingKeys: String, CodingKey {
        case colorModes = "color_modes", brightness, minKelvin = "min_kelvin", maxKelvin = "max_kelvin", effects,
            transition
    }

    /// Encodes with flat kelvin bounds for `bridge/devices`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(supportedColorModes, forKey: .colorModes)
        try container.encode(brightness, forKey: .brightness)
        try container.encodeIfPresent(kelvinRange?.lowerBound, forKey: .minKelvin)
        try container.encodeIfPresent(kelvinRange?.upperBound, forKey: .maxKelvin)
        try container.encode(effects, forKey: .effects)
        try container.encode(transition, forKey: .transition)
    }
}
