/// One thing a device exposes (zigbee2mqtt style): a property of its state, how it may be accessed,
/// and enough metadata to build a Home Assistant entity from it.
public struct Expose: Sendable, Hashable, Encodable {
    /// The shape of an exposed property.
    public enum Kind: String, Sendable, Hashable, Encodable {
        case light, binary, numeric, enumeration = "enum", text, action, scene
    }

    /// What a client may do with an exposed property (bit flags as in zigbee2mqtt).
    public struct Access: OptionSet, Sendable, Hashable, Encodable {
        public let rawValue: Int
        /// Creates access flags from bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Published in the device state.
        public static let state = Access(rawValue: 1)
        /// Settable through `/set`.
        public static let set = Access(rawValue: 2)
        /// Refreshable through `/get`.
        public static let get = Access(rawValue: 4)
    }

    /// Where Home Assistant files the entity.
    public enum Category: String, Sendable, Hashable, Encodable { case config, diagnostic }

    public var kind: Kind
    /// Human name of the entity; nil marks the device's main feature.
    public var name: String?
    /// Key in the device state and `/set` payloads.
    public var property: String
    public var access: Access
    /// The Home Assistant object id; defaults to the property.
    public var objectID: String? = nil
    public var unit: String? = nil
    public var minimum: Double? = nil
    public var maximum: Double? = nil
    public var step: Double? = nil
    /// Allowed values of an `enum` expose, or the payload an `action` sends.
    public var values: [String] = []
    public var valueOn: String? = nil
    public var valueOff: String? = nil
    public var deviceClass: String? = nil
    public var stateClass: String? = nil
    public var category: Category? = nil
    public var icon: String? = nil
    public var enabledByDefault: Bool = true
    /// Light capabilities, for `light` exposes.
    public var light: LightFeatures? = nil

    /// The main light of a device.
    public static func light(_ features: LightFeatures) -> Expose {
        Expose(kind: .light, name: nil, property: "light", access: [.state, .set, .get], light: features)
    }

    /// A read-only or writable number.
    public static func numeric(
        _ property: String, name: String, access: Access = [.state], unit: String? = nil,
        range: ClosedRange<Double>? = nil, step: Double? = nil, deviceClass: String? = nil,
        stateClass: String? = nil, category: Category? = nil
    ) -> Expose {
        Expose(
            kind: .numeric, name: name, property: property, access: access, unit: unit,
            minimum: range?.lowerBound, maximum: range?.upperBound, step: step,
            deviceClass: deviceClass, stateClass: stateClass, category: category)
    }

    /// A read-only or writable on/off value.
    public static func binary(
        _ property: String, name: String, access: Access = [.state], on: String = "ON", off: String = "OFF",
        deviceClass: String? = nil, category: Category? = nil
    ) -> Expose {
        Expose(
            kind: .binary, name: name, property: property, access: access, valueOn: on, valueOff: off,
            deviceClass: deviceClass, category: category)
    }

    /// A value from a fixed list.
    public static func enumeration(
        _ property: String, name: String, values: [String], access: Access = [.state],
        category: Category? = nil
    ) -> Expose {
        Expose(kind: .enumeration, name: name, property: property, access: access, values: values, category: category)
    }

    /// Free text, read-only unless stated.
    public static func text(_ property: String, name: String, access: Access = [.state], category: Category? = nil)
        -> Expose
    {
        Expose(kind: .text, name: name, property: property, access: access, category: category)
    }

    /// A fire-and-forget action, sent as `{"<property>": "<payload>"}` to `/set`.
    public static func action(_ property: String, name: String, payload: String, icon: String? = nil) -> Expose {
        Expose(kind: .action, name: name, property: property, access: [.set], values: [payload], icon: icon)
    }

    /// A scene that `/set` activates with `{"<property>": "<value>"}`.
    public static func scene(objectID: String, name: String, property: String = "scene", value: String) -> Expose {
        Expose(kind: .scene, name: name, property: property, access: [.set], objectID: objectID, values: [value])
    }

    /// The entity's object id in discovery topics.
    public var entityObjectID: String { objectID ?? property }

    /// Whether `/set` may write this property.
    public var isWritable: Bool { access.contains(.set) }
}

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
