import Foundation

extension SimulatorState {
    /// Dispatches an authenticated request to its endpoint (lifx.md §1 endpoint overview).
    mutating func route(
        _ request: IncomingRequest, path: [String], query: Substring, now: Date
    ) throws(APIError) -> APIResponse {
        let method = request.method.uppercased()
        func body() throws(APIError) -> Parameters {
            Parameters(try Parameters.parseBody(request.body, contentType: request.contentType))
        }
        if method == "GET", let match = path.matching("v1/lights/:") {
            return try listLights(match[0], now: now)
        }
        if method == "PUT", path.matching("v1/lights/states") != nil {
            return try setStates(try body())
        }
        if method == "PUT", let match = path.matching("v1/lights/:/state") {
            return try setState(match[0], try body())
        }
        if method == "POST", let match = path.matching("v1/lights/:/state/delta") {
            return try changeState(match[0], try body())
        }
        if method == "POST", let match = path.matching("v1/lights/:/toggle") {
            return try toggle(match[0], try body())
        }
        if method == "POST", let match = path.matching("v1/lights/:/effects/:") {
            return try runEffect(match[1], selector: match[0], try body())
        }
        if method == "GET", path.matching("v1/scenes") != nil {
            return APIResponse(status: 200, body: .scenes(scenes, accountUUID: accountUUID))
        }
        if method == "PUT", let match = path.matching("v1/scenes/:/activate") {
            return try activateScene(match[0], try body())
        }
        if method == "GET", path.matching("v1/color") != nil {
            return validateColor(query)
        }
        let shown = "/" + path.joined(separator: "/")
        throw APIError(404, "Route not found: \(method) \(shown)")
    }

    /// GET /v1/color?string=… answers the parsed components, null where the string is silent.
    private func validateColor(_ query: Substring) -> APIResponse {
        guard let text = URLCoding.queryItems(query).first(where: { $0.0 == "string" })?.1 else {
            return .validation([ParameterError(field: "string", message: "is missing")])
        }
        do {
            let color = try ColorString.parse(text)
            return .json(200, .object([
                ("hue", .number(color.hue)),
                ("saturation", .number(color.saturation)),
                ("brightness", .number(color.brightness)),
                ("kelvin", color.kelvin.map(JSON.int) ?? .null),
            ]))
        } catch {
            return .error(422, error.message, fields: [ParameterError(field: "string", message: error.message)])
        }
    }
}

extension [String] {
    /// Matches a slash-separated pattern where ":" captures one segment; nil on mismatch.
    func matching(_ pattern: String) -> [String]? {
        let parts = pattern.split(separator: "/")
        guard parts.count == count else { return nil }
        var captures: [String] = []
        for (part, segment) in zip(parts, self) {
            if part == ":" {
                captures.append(segment)
            } else if part != segment {
                return nil
            }
        }
        return captures
    }
}
