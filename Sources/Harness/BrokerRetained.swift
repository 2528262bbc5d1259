public import BridgeCore

/// What the broker holds: read with a fresh client each time, so the answer is the broker's, not a cache.
extension Broker {
    /// Every retained message under an MQTT filter, by topic.
    public func retainedMessages(under filter: String) async throws -> [String: ReceivedMessage] {
        let client = try await TestClient.connect(to: self)
        // QoS 0 keeps the broker's delivery order, so the sync message arrives after every retained one.
        try await client.subscribe(filter, qos: 0)
        await client.close()
        var result: [String: ReceivedMessage] = [:]
        for message in client.messages where message.retained { result[message.topic] = message }
        return result
    }

    /// The retained message on a topic, or nil when the broker holds none.
    public func retained(_ topic: String) async throws -> ReceivedMessage? {
        try await retainedMessages(under: topic)[topic]
    }

    /// The retained message on a topic parsed as JSON, or nil.
    public func retainedJSON(_ topic: String) async throws -> JSONValue? {
        try await retained(topic)?.json
    }

    /// Waits until the broker holds a retained message on `topic` that satisfies `predicate`.
    @discardableResult
    public func waitForRetained(
        _ topic: String, timeout: Duration = .seconds(30),
        where predicate: @Sendable (ReceivedMessage) -> Bool = { _ in true }
    ) async throws -> ReceivedMessage {
        var last: ReceivedMessage?
        do {
            return try await waitForValue("a retained message on \(topic)", timeout: timeout, every: .milliseconds(50)) {
                last = try await retained(topic)
                return last.flatMap { predicate($0) ? $0 : nil }
            }
        } catch let failure as TestFailure {
            throw TestFailure("\(failure.message); the broker holds: \(last.map(\.text) ?? "nothing")")
        }
    }

    /// Waits until the broker holds `json` retained on `topic`.
    @discardableResult
    public func waitForRetained(_ topic: String, equals json: JSONValue, timeout: Duration = .seconds(30))
        async throws -> ReceivedMessage
    {
        try await waitForRetained(topic, timeout: timeout) { $0.json == json }
    }

    /// Waits until the broker holds nothing retained on `topic`.
    public func waitForNoRetained(_ topic: String, timeout: Duration = .seconds(30)) async throws {
        var last: ReceivedMessage?
        do {
            try await waitUntil("\(topic) to hold no retained message", timeout: timeout, every: .milliseconds(50)) {
                last = try await retained(topic)
                return last == nil
            }
        } catch let failure as TestFailure {
            throw TestFailure("\(failure.message); the broker holds: \(last.map(\.text) ?? "nothing")")
        }
    }
}
