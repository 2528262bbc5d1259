/// The parameters of Set State (lifx.md §3), validated.
struct StateChange: Sendable {
    var power: Bool?
    var color: ParsedColor?
    var brightness: Double?
    var duration: Double?
    var infrared: Double?
    var fast = false

    /// Longest transition the API accepts: a hundred years in seconds.
    static let maximumDuration = 3_155_760_000.0

    /// Reads Set State fields from a body, recording problems in `params`.
    static func read(_ params: inout Parameters) -> StateChange {
        StateChange(
            power: params.power(),
            color: params.color("color"),
            brightness: params.number("brightness", in: 0...1),
            duration: params.number("duration", in: 0...maximumDuration),
            infrared: params.number("infrared", in: 0...1),
            fast: params.bool("fast") ?? false
        )
    }

    /// Applies to one bulb; an explicit `brightness` beats one inside `color`.
    func apply(to light: inout SimulatedLight) {
        if let power { light.power = power }
        if let color { light.applyColor(color) }
        if let brightness { light.brightness = Quantize.unit(brightness) }
    }
}

/// The parameters of State Delta (lifx.md §5), validated.
struct DeltaChange: Sendable {
    var power: Bool?
    var hue: Double?
    var saturation: Double?
    var brightness: Double?
    var kelvin: Double?

    /// Reads State Delta fields; `duration` and `infrared` are validated but have nothing to change.
    static func read(_ params: inout Parameters) -> DeltaChange {
        let change = DeltaChange(
            power: params.power(),
            hue: params.number("hue"),
            saturation: params.number("saturation"),
            brightness: params.number("brightness"),
            kelvin: params.number("kelvin")
        )
        _ = params.number("duration", in: 0...StateChange.maximumDuration)
        _ = params.number("infrared")
        return change
    }

    /// Applies to one bulb, clipping like the API does.
    func apply(to light: inout SimulatedLight) {
        if let power { light.power = power }
        if let hue, light.hasColor { light.hue = Quantize.rotatedHue(light.hue, by: hue) }
        if let saturation, light.hasColor {
            light.saturation = Quantize.unit(light.saturation + saturation)
        }
        if let brightness { light.brightness = Quantize.unit(light.brightness + brightness) }
        if let kelvin, light.hasVariableColorTemp {
            let target = min(max(Double(light.kelvin) + kelvin, 2500), 9000)
            light.setKelvin(Int(target.rounded()))
        }
    }
}

extension SimulatedLight {
    /// Applies whichever colour components are present, within what the product supports.
    mutating func applyColor(_ color: ParsedColor) {
        if hasColor {
            if let hue = color.hue { self.hue = Quantize.hue(hue) }
            if let saturation = color.saturation { self.saturation = Quantize.unit(saturation) }
        }
        if let kelvin = color.kelvin, hasVariableColorTemp { setKelvin(kelvin) }
        if let brightness = color.brightness { self.brightness = Quantize.unit(brightness) }
    }

    /// Clamps to the product's range, as a bulb does with out-of-range requests.
    mutating func setKelvin(_ value: Int) {
        kelvin = min(max(value, minKelvin), maxKelvin)
    }

    /// Re-applies the bulb's storage limits after an arbitrary edit.
    mutating func normalise() {
        hue = Quantize.hue(hue)
        saturation = hasColor ? Quantize.unit(saturation) : 0
        brightness = Quantize.unit(brightness)
        setKelvin(kelvin)
    }

    /// Applies one scene state, skipping properties the activation asked to ignore.
    mutating func apply(_ state: SimulatedSceneState, ignoring ignored: Set<String>) {
        if let power = state.power, !ignored.contains("power") { self.power = power }
        if let brightness = state.brightness, ignored.isDisjoint(with: ["brightness", "intensity"]) {
            self.brightness = Quantize.unit(brightness)
        }
        var color = ParsedColor()
        if !ignored.contains("hue") { color.hue = state.hue }
        if !ignored.contains("saturation") { color.saturation = state.saturation }
        if !ignored.contains("kelvin") { color.kelvin = state.kelvin }
        applyColor(color)
    }
}
