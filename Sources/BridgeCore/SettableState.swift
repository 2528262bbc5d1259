/// The part of a device's state that a `/set` could write back: what a device's commanded state is, as opposed to
/// readings, diagnostics or derived values.
extension DeviceDescriptor {
    /// The keys of `state` its exposes mark both published and settable, nested as in the state (a composite keeps
    /// only its settable leaves); for a light, the keys its light command takes. Nulls are left out (no `/set`
    /// takes one), and of a light's `color` and `color_temp` only the one its `color_mode` names, so the result,
    /// sent as one `/set`, asks for the state as it is.
    public func settableState(_ state: [String: JSONValue]) -> [String: JSONValue] {
        var settable = Self.settableValues(state, among: exposes)
        if let features = lightFeatures {
            for key in LightCommand.keys where key != "transition" && key != "flash" {
                guard let value = state[key], value != .null, Self.lightTakes(key, features) else { continue }
                settable[key] = value
            }
            switch state["color_mode"]?.stringValue {
            case ColorMode.hs.rawValue: settable["color_temp"] = nil
            case ColorMode.colorTemp.rawValue: settable["color"] = nil
            default: break
            }
        }
        return settable
    }

    /// Whether a light with these features takes the key in a `/set` (as `LightCommand.parse` accepts it).
    private static func lightTakes(_ key: String, _ features: LightFeatures) -> Bool {
        switch key {
        case "brightness": features.brightness
        case "color": features.colorModes.contains(.hs)
        case "color_temp": features.colorModes.contains(.colorTemp) && features.kelvinRange != nil
        case "effect": !features.effects.isEmpty
        default: true
        }
    }

    private static func settableValues(_ state: [String: JSONValue], among exposes: [Expose]) -> [String: JSONValue] {
        var settable: [String: JSONValue] = [:]
        for expose in exposes where expose.kind != .light && expose.access.isSuperset(of: [.state, .set]) {
            guard let value = state[expose.property], value != .null else { continue }
            if expose.kind == .composite {
                guard let nested = value.objectValue else { continue }
                let inner = settableValues(nested, among: expose.features)
                if !inner.isEmpty { settable[expose.property] = .object(inner) }
            } else {
                settable[expose.property] = value
            }
        }
        return settable
    }
}
