/// One thing a device exposes (zigbee2mqtt style): a property of its state, how it may be accessed,
/// and enough metadata to build a Home Assistant entity from it. A `composite` holds child exposes under
/// its property, for nested state such as `{"motor_a": {"speed": 20, "position": 360}}`.
public struct Expose: Sendable, Hashable {
    /// The shape of an exposed property.
    public enum Kind: String, Sendable, Hashable {
        case light, binary, numeric, enumeration = "enum", text, action, scene, event, composite
    }

    /// What a client may do with an exposed property (bit flags as in zigbee2mqtt).
    public struct Access: OptionSet, Sendable, Hashable {
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
    public enum Category: String, Sendable, Hashable { case config, diagnostic }

    public var kind: Kind
    /// Human name of the entity; nil marks the device's main feature.
    public var name: String?
    /// Key in the device state and `/set` payloads; inside a composite, the key within the composite's object.
    public var property: String
    public var access: Access
    /// The Home Assistant object id; defaults to the property.
    public var objectID: String? = nil
    public var unit: String? = nil
    /// The range of a numeric value; for text, of its length in characters.
    public var minimum: Double? = nil
    public var maximum: Double? = nil
    public var step: Double? = nil
    /// Allowed values of an `enum` expose, the payload an `action` sends, or the types an `event` may carry.
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
    /// The child exposes of a `composite`, each keyed by its own property inside the composite's object.
    public var features: [Expose] = []

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

    /// Free text, read-only unless stated; `maxLength` bounds what `/set` takes (in characters).
    public static func text(
        _ property: String, name: String, access: Access = [.state], category: Category? = nil, maxLength: Int? = nil
    ) -> Expose {
        Expose(
            kind: .text, name: name, property: property, access: access, maximum: maxLength.map(Double.init),
            category: category)
    }

    /// A fire-and-forget action, sent as `{"<property>": "<payload>"}` (or `{"<property>": true}`) to `/set`.
    public static func action(_ property: String, name: String, payload: String, icon: String? = nil) -> Expose {
        Expose(kind: .action, name: name, property: property, access: [.set], values: [payload], icon: icon)
    }

    /// A scene that `/set` activates with `{"<property>": "<value>"}`.
    public static func scene(objectID: String, name: String, property: String = "scene", value: String) -> Expose {
        Expose(kind: .scene, name: name, property: property, access: [.set], objectID: objectID, values: [value])
    }

    /// Something that happens rather than a value, such as a button press or a dimmer turn, of one of `types`
    /// (`press`, `double_press`, `long_press`). It is never part of the state, so its access is empty: the driver
    /// reports each occurrence with `DeviceEvent.event`, the bridge publishes it once, not retained, on
    /// `<alias>/event`, and Home Assistant gets an `event` entity (`deviceClass` `button`, `doorbell` or `motion`).
    public static func event(
        _ property: String, name: String?, types: [String], deviceClass: String? = nil, category: Category? = nil
    ) -> Expose {
        Expose(
            kind: .event, name: name, property: property, access: [], values: types, deviceClass: deviceClass,
            category: category)
    }

    /// Values nested under `property`, described by `features` (zigbee2mqtt's `composite`): binary, numeric,
    /// enum, text, action, event and further composite exposes. Each leaf becomes its own Home Assistant entity,
    /// and `/set` takes the writable ones nested the same way (or, for one of its actions, that action's payload
    /// in place of the object). A leaf that is set but never in the state (`access: [.set]`) qualifies a
    /// command, such as the duration of a motor move, and has no entity. Access is what the features allow
    /// together; a `category` or a disabled default applies to every feature that sets none itself.
    public static func composite(
        _ property: String, name: String, features: [Expose], category: Category? = nil, enabledByDefault: Bool = true
    ) -> Expose {
        let access = features.reduce(into: Access()) { $0.formUnion($1.access) }
        return Expose(
            kind: .composite, name: name, property: property, access: access, category: category,
            enabledByDefault: enabledByDefault, features: features)
    }

    /// The entity's object id in discovery topics.
    public var entityObjectID: String { objectID ?? property }

    /// Whether `/set` may write this property (for a composite: one of its features).
    public var isWritable: Bool { access.contains(.set) }
}

extension Expose {
    /// The expose as `bridge/devices` lists it, in zigbee2mqtt's shape: `type`, and `features` only on composites.
    /// Built as a value, without an encoder: the inventory is written again for every device whenever one changes.
    public var json: JSONValue {
        var entry: [String: JSONValue] = [
            "type": .string(kind.rawValue), "property": .string(property), "access": .number(Double(access.rawValue)),
            "enabled_by_default": .bool(enabledByDefault),
        ]
        let texts: [(String, String?)] = [
            ("name", name), ("object_id", objectID), ("unit", unit), ("value_on", valueOn), ("value_off", valueOff),
            ("device_class", deviceClass), ("state_class", stateClass), ("category", category?.rawValue), ("icon", icon),
        ]
        for case let (key, text?) in texts { entry[key] = .string(text) }
        for case let (key, number?) in [("minimum", minimum), ("maximum", maximum), ("step", step)] {
            entry[key] = .number(number)
        }
        if !values.isEmpty { entry["values"] = .array(values.map(JSONValue.string)) }
        if let light { entry["light"] = light.json }
        if kind == .composite { entry["features"] = .array(features.map(\.json)) }
        return .object(entry)
    }
}
