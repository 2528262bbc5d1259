public import BridgeCore

/// Maps LIFX lights to Home Assistant's JSON light state and capabilities.
public enum LightStateMapping {
    /// The effects a product can run, as Home Assistant lists them.
    public static func effects(for capabilities: LIFXLight.Capabilities) -> [String] {
        var effects = ["breathe", "pulse"]
        if capabilities.hasMultizone { effects.append("move") }
        if capabilities.hasMatrix { effects += ["morph", "flame", "clouds", "sunrise", "sunset"] }
        return effects + ["stop"]
    }

    /// Colour modes, kelvin range and effects of a product.
    public static func features(for capabilities: LIFXLight.Capabilities) -> LightFeatures {
        var modes: [ColorMode] = []
        if capabilities.hasColor { modes.append(.hs) }
        if capabilities.hasVariableColorTemp { modes.append(.colorTemp) }
        return LightFeatures(
            colorModes: modes, brightness: true,
            kelvinRange: capabilities.hasVariableColorTemp ? capabilities.minKelvin...max(capabilities.minKelvin, capabilities.maxKelvin) : nil,
            effects: effects(for: capabilities), transition: true)
    }

    /// The retained state of a light: HA's light keys (kelvin for `color_temp`) plus LIFX details.
    public static func state(of light: LIFXLight) -> [String: JSONValue] {
        let caps = light.capabilities
        var state: [String: JSONValue] = [
            "state": .string(light.power ? "ON" : "OFF"),
            "brightness": .number((light.brightness * 255).rounded()),
            "label": .string(light.label),
            "connected": .bool(light.connected),
            "product": light.product.map { .string($0.name) } ?? .null,
            "group": light.group.map { .string($0.name) } ?? .null,
            "location": light.location.map { .string($0.name) } ?? .null,
            "last_seen": light.lastSeen.map(JSONValue.string) ?? .null,
        ]
        let effect = light.effect.map { $0.lowercased() }
        state["effect"] = effect.flatMap { $0 == "off" || $0.isEmpty ? nil : JSONValue.string($0) } ?? .null
        if caps.hasColor {
            state["color"] = ["h": .number(round1(light.color.hue)), "s": .number(round1(light.color.saturation * 100))]
        }
        if caps.hasVariableColorTemp {
            state["color_temp"] = .number(Double(min(max(light.color.kelvin, caps.minKelvin), max(caps.minKelvin, caps.maxKelvin))))
        }
        if caps.hasColor && light.color.saturation > 0.001 {
            state["color_mode"] = "hs"
        } else if caps.hasVariableColorTemp {
            state["color_mode"] = "color_temp"
        } else {
            state["color_mode"] = "brightness"
        }
        return state
    }

    /// Whether two published states differ only by the API's quantisation noise. `last_seen` moves at every
    /// poll, so it rides along with the next real change instead of causing a publish by itself.
    public static func nearlyEqual(_ lhs: [String: JSONValue], _ rhs: [String: JSONValue]) -> Bool {
        guard Set(lhs.keys) == Set(rhs.keys) else { return false }
        for (key, left) in lhs where key != "last_seen" {
            guard let right = rhs[key] else { return false }
            switch key {
            case "brightness": if !close(left, right, within: 1) { return false }
            case "color_temp": if !close(left, right, within: 5) { return false }
            case "color": if !close(left["h"], right["h"], within: 0.6) || !close(left["s"], right["s"], within: 0.6) { return false }
            default: if left != right { return false }
            }
        }
        return true
    }

    private static func close(_ lhs: JSONValue?, _ rhs: JSONValue?, within tolerance: Double) -> Bool {
        guard let a = lhs?.doubleValue, let b = rhs?.doubleValue else { return lhs == rhs }
        return abs(a - b) <= tolerance
    }

    private static func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
