/// One validated entry of a Set States request.
private struct BatchOperation {
    var selector: String
    var change: StateChange
    /// The merged entry as echoed back in `operation`.
    var echo: [(String, JSON)]
}

extension SimulatorState {
    /// Most entries one Set States request may carry.
    static let maximumBatchStates = 50

    /// PUT /v1/lights/states — `defaults` merged into every entry; unmatched selectors report "not found".
    mutating func setStates(_ body: Parameters) throws(APIError) -> APIResponse {
        var params = body
        let entries = objects(params.raw("states"), field: "states", params: &params) ?? []
        var defaults: [(String, JSON)] = []
        switch params.raw("defaults") {
        case nil: break
        case .object(let pairs)?: defaults = pairs
        case _?: params.fail("defaults", "must be an object")
        }
        let fastForAll = params.bool("fast") ?? false
        if params.errors.isEmpty, entries.isEmpty || entries.count > Self.maximumBatchStates {
            params.fail("states", "must hold between 1 and \(Self.maximumBatchStates) entries")
        }
        var operations: [BatchOperation] = []
        var errors = params.errors
        for (index, entry) in entries.enumerated() {
            let merged = defaults.filter { key, _ in !entry.contains { $0.0 == key } } + entry
            var fields = Parameters(merged, prefix: "states[\(index)].")
            let selector = fields.string("selector")
            if selector == nil, fields.errors.isEmpty { fields.fail("selector", "is missing") }
            let change = StateChange.read(&fields)
            errors += fields.errors
            let echo = merged.filter { $0.0 == "selector" } + merged.filter { $0.0 != "selector" }
            operations.append(BatchOperation(selector: selector ?? "", change: change, echo: echo))
        }
        guard errors.isEmpty else { throw APIError(.validation(errors)) }

        let results: [JSON] = operations.map { operation in
            var pairs: [(String, JSON)] = [("operation", .object(operation.echo))]
            if let indices = try? resolve(operation.selector) {
                // Fast mode skips the device round trip, so the cloud can only say it accepted the work.
                let status = fastForAll || operation.change.fast ? "accepted" : "ok"
                pairs.append(("results", .array(write(indices, status: status) { operation.change.apply(to: &$0) })))
            } else {
                pairs.append(("error", .string("not found")))
            }
            return .object(pairs)
        }
        return .json(207, .object([("results", .array(results))]))
    }

    /// Reads an array of objects, failing the field if it is anything else.
    private func objects(_ value: JSON?, field: String, params: inout Parameters) -> [[(String, JSON)]]? {
        guard let value else { return nil }
        guard case .array(let items) = value else {
            params.fail(field, "must be a list of objects")
            return nil
        }
        var result: [[(String, JSON)]] = []
        for item in items {
            guard case .object(let pairs) = item else {
                params.fail(field, "must be a list of objects")
                return nil
            }
            result.append(pairs)
        }
        return result
    }
}
