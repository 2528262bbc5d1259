public import BridgeCore

/// What a Nova light is set to, as the bridge publishes it and the frames carry it.
public struct NovaLightState: Sendable, Hashable {
    /// On means lit until turned off: the driver renews the frame before the flash's own timeout runs out.
    public var isOn: Bool
    /// 1–255, kept while off so `ON` returns to it.
    public var brightness: Int
    /// Within `NovaMix.kelvinRange`.
    public var kelvin: Int
    /// The preset in use; a change of brightness or colour temperature ends it.
    public var effect: NovaPreset?
    /// The flash's own timeout in milliseconds, sent in every light frame.
    public var timeout: UInt16

    /// Creates a state; values are clamped into their ranges.
    public init(
        isOn: Bool = false, brightness: Int = 255, kelvin: Int = 4000, effect: NovaPreset? = nil,
        timeout: UInt16 = NovaLight.defaultTimeout
    ) {
        self.isOn = isOn
        self.brightness = min(max(brightness, 1), 255)
        self.kelvin = min(max(kelvin, NovaMix.kelvinRange.lowerBound), NovaMix.kelvinRange.upperBound)
        self.effect = effect
        self.timeout = min(max(timeout, NovaLight.timeoutRange.lowerBound), NovaLight.timeoutRange.upperBound)
    }

    /// The command that puts the flash in this state: `off`, a preset with its own timeout, or the mix.
    public var command: NovaCommand {
        guard isOn else { return .off }
        if let effect { return .light(warm: effect.pwm.warm, cool: effect.pwm.cool, timeout: effect.timeout) }
        let pwm = NovaMix.pwm(brightness: brightness, kelvin: kelvin)
        return NovaCommand.light(warm: pwm.warm, cool: pwm.cool, timeout: timeout).normalized
    }

    /// The state after a validated `/set`: its light part and a `timeout` attribute, if present.
    public func applying(_ set: SetCommand) -> NovaLightState {
        var next = set.light.map(applying) ?? self
        if let raw = set.attributes["timeout"]?.doubleValue {
            let bounds = NovaLight.timeoutRange
            next.timeout = UInt16(min(max(raw.rounded(), Double(bounds.lowerBound)), Double(bounds.upperBound)))
        }
        return next
    }

    /// The state after a light command. Without `state`, a brightness above 0 or an effect turns the light on
    /// and brightness 0 turns it off (keeping the last brightness); colour temperature alone changes only the
    /// colour, lit or not.
    public func applying(_ command: LightCommand) -> NovaLightState {
        var next = self
        switch command.power {
        case .on: next.isOn = true
        case .off: next.isOn = false
        case .toggle: next.isOn = !isOn
        case nil: if command.effect != nil || (command.brightness ?? 0) > 0 { next.isOn = true }
        }
        if let brightness = command.brightness {
            if brightness > 0 { next.brightness = min(brightness, 255) } else { next.isOn = false }
            next.effect = nil
        }
        if let kelvin = command.kelvin {
            next.kelvin = min(max(kelvin, NovaMix.kelvinRange.lowerBound), NovaMix.kelvinRange.upperBound)
            next.effect = nil
        }
        if let name = command.effect, let preset = NovaPreset(rawValue: name.lowercased()) {
            next.effect = preset
            // Show the preset as the brightness and colour temperature it really is.
            if let shown = NovaMix.state(warm: preset.pwm.warm, cool: preset.pwm.cool) {
                next.brightness = shown.brightness
                next.kelvin = shown.kelvin
            }
        }
        return next
    }

    /// The retained state keys: Home Assistant's JSON light (kelvin for `color_temp`) and `timeout`.
    public var json: [String: JSONValue] {
        [
            "state": .string(isOn ? "ON" : "OFF"),
            "brightness": .number(Double(brightness)),
            "color_temp": .number(Double(kelvin)),
            "color_mode": "color_temp",
            "effect": effect.map { .string($0.rawValue) } ?? .null,
            "timeout": .number(Double(timeout)),
        ]
    }
}
