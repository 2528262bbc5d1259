extension SimulatorState {
    /// Properties an activation may leave alone (lifx.md §7).
    static let ignorableProperties: Set<String> = [
        "power", "infrared", "duration", "intensity", "hue", "saturation", "brightness", "kelvin",
    ]

    /// PUT /v1/scenes/scene_id:<uuid>/activate — body optional; applies each state, then `overrides`.
    mutating func activateScene(_ selector: String, _ body: Parameters) throws(APIError) -> APIResponse {
        guard let terms = try? LightSelector.parseList(selector), terms.count == 1, terms[0].kind == .sceneID else {
            throw APIError(.validation([
                ParameterError(field: "selector", message: "must be scene_id:<uuid>"),
            ]))
        }
        guard let scene = scenes.first(where: { $0.uuid == terms[0].value }) else {
            throw APIError(404, "Could not find \(selector).")
        }
        var params = body
        _ = params.number("duration", in: 0...StateChange.maximumDuration)
        let ignored = Set(params.stringList("ignore") ?? [])
        for property in ignored.subtracting(Self.ignorableProperties).sorted() {
            params.fail("ignore", "contains unknown property '\(property)'")
        }
        var overrides: StateChange?
        if let raw = params.raw("overrides") {
            if case .object(let pairs) = raw {
                var nested = Parameters(pairs, prefix: "overrides.")
                overrides = StateChange.read(&nested)
                for error in nested.errors { params.fail(error.field, error.message) }
            } else {
                params.fail("overrides", "must be an object")
            }
        }
        let fast = params.bool("fast") ?? false
        try params.validate()

        var affected = Set<Int>()
        for state in scene.states {
            guard let stateTerms = try? LightSelector.parseList(state.selector) else { continue }
            let indices = LightSelector.resolve(stateTerms.filter { $0.kind != .sceneID }, in: lights)
            for index in indices {
                affected.insert(index)
                if lights[index].connected { lights[index].apply(state, ignoring: ignored) }
            }
        }
        let entries = write(affected.sorted()) { light in overrides?.apply(to: &light) }
        return Self.results(entries, unknown: params.unknown, fast: fast)
    }
}
