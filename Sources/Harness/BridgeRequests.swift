public import BridgeCore

/// The bridge's request/response API, as a client sees it.
extension TestClient {
    /// Publishes raw bytes to `<base>/bridge/request/<name>` and returns the next response to it.
    public func request(_ name: String, bytes: [UInt8], base: String = "t2m", timeout: Duration = .seconds(30))
        async throws -> JSONValue
    {
        let responseTopic = "\(base)/bridge/response/\(name)"
        try await subscribe(responseTopic)
        let mark = self.mark
        publish("\(base)/bridge/request/\(name)", bytes: bytes)
        let message = try await waitForMessage(topic: responseTopic, after: mark, timeout: timeout)
        guard let json = message.json else { throw TestFailure("response on \(responseTopic) is not JSON: \(message.text)") }
        return json
    }

    /// Publishes text to `<base>/bridge/request/<name>` and returns the next response to it.
    public func request(_ name: String, _ payload: String, base: String = "t2m", timeout: Duration = .seconds(30))
        async throws -> JSONValue
    {
        try await request(name, bytes: Array(payload.utf8), base: base, timeout: timeout)
    }

    /// Publishes a JSON request and returns the next response to it.
    public func request(_ name: String, json: JSONValue, base: String = "t2m", timeout: Duration = .seconds(30))
        async throws -> JSONValue
    {
        try await request(name, bytes: json.jsonBytes, base: base, timeout: timeout)
    }

    /// Sends `health_check` with a fresh transaction and throws unless the bridge answers `ok` with it echoed.
    public func expectHealthy(base: String = "t2m", timeout: Duration = .seconds(10)) async throws {
        let transaction = JSONValue.number(Double(Int.random(in: 1...1_000_000)))
        let response = try await request("health_check", json: ["transaction": transaction], base: base, timeout: timeout)
        guard response["status"] == "ok", response["transaction"] == transaction else {
            throw TestFailure("health_check answered \(response.jsonString)")
        }
    }

    /// Subscribes to `<base>/bridge/event` and returns the mark to wait after.
    public func watchEvents(base: String = "t2m") async throws -> Int {
        try await subscribe("\(base)/bridge/event")
        return mark
    }

    /// Waits for a `bridge/event` of a type (after `mark`) whose data satisfies `predicate`.
    @discardableResult
    public func waitForEvent(
        _ type: String, after mark: Int, base: String = "t2m", timeout: Duration = .seconds(10),
        where predicate: @Sendable ([String: JSONValue]) -> Bool = { _ in true }
    ) async throws -> [String: JSONValue] {
        let message = try await waitForMessage(topic: "\(base)/bridge/event", after: mark, timeout: timeout) { message in
            guard let json = message.json, json["type"]?.stringValue == type, let data = json["data"]?.objectValue else {
                return false
            }
            return predicate(data)
        }
        return message.json?["data"]?.objectValue ?? [:]
    }
}
