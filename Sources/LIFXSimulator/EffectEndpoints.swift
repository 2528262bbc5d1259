/// Validated effect parameters that change the simulated light.
private struct EffectRequest {
    var name: String
    var powerOn = true
    var powerOff = false
    var persistColor: ParsedColor?
    var stops = false
    var fast = false
}

extension SimulatorState {
    /// Effects the API offers under /effects/ (lifx.md §6).
    static let effectNames: Set<String> = [
        "breathe", "pulse", "move", "morph", "flame", "clouds", "sunrise", "sunset", "off",
    ]

    /// POST /v1/lights/:selector/effects/:name — marks the effect as running on each reachable light.
    mutating func runEffect(_ name: String, selector: String, _ body: Parameters) throws(APIError) -> APIResponse {
        guard Self.effectNames.contains(name) else {
            throw APIError(404, "Route not found: POST /v1/lights/\(selector)/effects/\(name)")
        }
        var params = body
        let effect = Self.readEffect(name, &params)
        try params.validate()
        let entries = write(try resolve(selector)) { light in
            if effect.name == "off" || effect.stops {
                light.effect = "OFF"
                if effect.powerOff { light.power = false }
                return
            }
            light.effect = effect.name.uppercased()
            if effect.powerOn { light.power = true }
            if let color = effect.persistColor { light.applyColor(color) }
        }
        return Self.results(entries, unknown: params.unknown, fast: effect.fast)
    }

    private static func readEffect(_ name: String, _ params: inout Parameters) -> EffectRequest {
        var effect = EffectRequest(name: name)
        if name == "off" {
            effect.powerOff = params.bool("power_off") ?? false
            return effect
        }
        effect.powerOn = params.bool("power_on") ?? true
        _ = params.number("period", in: 0...StateChange.maximumDuration)
        switch name {
        case "breathe", "pulse":
            let color = params.color("color")
            if params.raw("color") == nil { params.fail("color", "is missing") }
            _ = params.color("from_color")
            _ = params.number("cycles", in: 0...Double(Int32.max))
            if name == "breathe" { _ = params.number("peak", in: 0...1) }
            if params.bool("persist") == true { effect.persistColor = color }
        case "move":
            _ = params.string("direction", allowed: ["forward", "backward"])
            _ = params.number("cycles", in: 0...Double(Int32.max))
            effect.fast = params.bool("fast") ?? false
        default:
            if name == "morph", let palette = params.stringList("palette") {
                for (index, entry) in palette.enumerated() {
                    do {
                        _ = try ColorString.parse(entry)
                    } catch {
                        params.fail("palette[\(index)]", "is invalid: \(error.message)")
                    }
                }
            }
            // A zero duration means "stop" for the open-ended effects.
            effect.stops = params.number("duration", in: 0...StateChange.maximumDuration) == 0
            effect.fast = params.bool("fast") ?? false
        }
        return effect
    }
}
