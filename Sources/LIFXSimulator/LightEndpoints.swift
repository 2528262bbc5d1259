import Foundation

extension SimulatorState {
    /// Indices of lights a path selector names: 422 when malformed, 404 when nothing matches.
    func resolve(_ selector: String) throws(APIError) -> [Int] {
        let terms: [LightSelector]
        do {
            terms = try LightSelector.parseList(selector)
        } catch {
            throw APIError(.validation([ParameterError(field: "selector", message: error.message)]))
        }
        let indices = LightSelector.resolve(terms, in: lights, scenes: scenes)
        guard !indices.isEmpty else { throw APIError(404, "Could not find \(selector).") }
        return indices
    }

    /// Changes connected lights and reports each one; offline lights stay untouched.
    mutating func write(
        _ indices: [Int],
        status: String = "ok",
        extra: (SimulatedLight) -> [(String, JSON)] = { _ in [] },
        change: (inout SimulatedLight) -> Void
    ) -> [JSON] {
        indices.map { index in
            if lights[index].connected { change(&lights[index]) }
            let light = lights[index]
            return .object([
                ("id", .string(light.id)),
                ("label", .string(light.label)),
                ("status", .string(light.connected ? status : "offline")),
            ] + extra(light))
        }
    }

    /// The 207 results answer, or an empty 202 in fast mode.
    static func results(_ entries: [JSON], unknown: [(String, JSON)] = [], fast: Bool = false) -> APIResponse {
        if fast { return APIResponse(status: 202, body: .empty) }
        var pairs: [(String, JSON)] = [("results", .array(entries))]
        if !unknown.isEmpty {
            pairs.append(("warnings", .array([.object([
                ("unknown_params", .object(unknown)),
                ("warning", .string("Unknown params")),
            ])])))
        }
        return .json(207, .object(pairs))
    }

    /// GET /v1/lights/:selector — always an array, even for one id.
    func listLights(_ selector: String, now: Date) throws(APIError) -> APIResponse {
        let indices = try resolve(selector)
        return APIResponse(status: 200, body: .lights(indices.map { lights[$0] }, now: now))
    }

    /// PUT /v1/lights/:selector/state.
    mutating func setState(_ selector: String, _ body: Parameters) throws(APIError) -> APIResponse {
        var params = body
        let change = StateChange.read(&params)
        try params.validate()
        let entries = write(try resolve(selector)) { change.apply(to: &$0) }
        return Self.results(entries, unknown: params.unknown, fast: change.fast)
    }

    /// POST /v1/lights/:selector/state/delta.
    mutating func changeState(_ selector: String, _ body: Parameters) throws(APIError) -> APIResponse {
        var params = body
        let change = DeltaChange.read(&params)
        try params.validate()
        let entries = write(try resolve(selector)) { change.apply(to: &$0) }
        return Self.results(entries, unknown: params.unknown)
    }

    /// POST /v1/lights/:selector/toggle — any reachable light on turns all off, otherwise all on.
    mutating func toggle(_ selector: String, _ body: Parameters) throws(APIError) -> APIResponse {
        var params = body
        _ = params.number("duration", in: 0...StateChange.maximumDuration)
        try params.validate()
        let indices = try resolve(selector)
        let anyOn = indices.contains { lights[$0].connected && lights[$0].power }
        let entries = write(indices, extra: { [("power", .string($0.power ? "on" : "off"))] }) {
            $0.power = !anyOn
        }
        return Self.results(entries, unknown: params.unknown)
    }
}
