public import BridgeCore
import Foundation
import Logging
import Mosquitto
import Synchronization

/// One message a `TestClient` received.
public struct ReceivedMessage: Sendable, CustomStringConvertible {
    /// Arrival order within the client, starting at 0.
    public let index: Int
    public let topic: String
    public let payload: [UInt8]
    /// Set when the broker replayed a retained message on subscribe.
    public let retained: Bool
    /// When it arrived, in nanoseconds on CLOCK_MONOTONIC (the clock the benchmark's C programs print).
    public let monotonic: Int64

    /// The payload as UTF-8 text.
    public var text: String { String(decoding: payload, as: UTF8.self) }
    /// The payload parsed as JSON; `bridge/devices` for many devices is larger than a command may be.
    public var json: JSONValue? { try? JSONValue.parse(payload, limits: JSONLimits(maxBytes: 64 << 20, maxDepth: 64)) }
    /// `topic: text`, shortened.
    public var description: String { "\(topic)\(retained ? " (retained)" : ""): \(text.prefix(300))" }
}

/// Everything a client received, shared with the callback that fills it.
final class MessageStore: Sendable {
    private let state = Mutex<(next: Int, messages: [ReceivedMessage], syncs: Set<String>)>((0, [], []))
    let syncPrefix: String

    init(syncPrefix: String) { self.syncPrefix = syncPrefix }

    func add(topic: String, payload: [UInt8], retained: Bool) {
        state.withLock { state in
            if topic.hasPrefix(syncPrefix) {
                state.syncs.insert(topic)
                return
            }
            state.messages.append(ReceivedMessage(
                    index: state.next, topic: topic, payload: payload, retained: retained, monotonic: monotonicNanoseconds()))
            state.next += 1
        }
    }

    var all: [ReceivedMessage] { state.withLock { $0.messages } }
    var next: Int { state.withLock { $0.next } }
    func sawSync(_ topic: String) -> Bool { state.withLock { $0.syncs.contains(topic) } }
    func clear() { state.withLock { $0.messages.removeAll() } }
}

/// A real MQTT client for tests: subscribes, publishes and records what arrives.
public final class TestClient: Sendable {
    private let client: MosquittoClient
    private let store: MessageStore
    private let syncCounter = Atomic<Int>(0)
    /// The client id used with the broker.
    public let clientID: String

    /// Connects to a broker and waits until the connection is up.
    public static func connect(to broker: Broker, timeout: Duration = .seconds(10)) async throws -> TestClient {
        try await connect(port: broker.port, timeout: timeout)
    }

    /// Connects to 127.0.0.1:`port` and waits until the connection is up.
    public static func connect(port: Int, timeout: Duration = .seconds(10)) async throws -> TestClient {
        let client = try TestClient(port: port)
        try await waitUntil("test client \(client.clientID) to connect to port \(port)", timeout: timeout) {
            client.isConnected
        }
        try await client.sync(timeout: timeout)
        return client
    }

    private init(port: Int) throws {
        clientID = "test-" + UUID().uuidString.prefix(12).lowercased()
        let store = MessageStore(syncPrefix: "things2mqtt-test-sync/\(clientID)/")
        self.store = store
        let options = MosquittoOptions(host: "127.0.0.1", port: port, clientID: clientID, reconnectDelay: 0.1...1)
        let client = try MosquittoClient(
            options: options, logger: Logger(label: "test-client", factory: { _ in SwiftLogNoOpLogHandler() }),
            deliver: { event in
                if case .message(let message) = event {
                    store.add(topic: message.topic, payload: message.payload, retained: message.retained)
                }
            })
        self.client = client
        client.subscribe(store.syncPrefix + "#", qos: 0)
        client.start()
    }

    deinit { client.stop() }

    /// Whether the client is connected right now.
    public var isConnected: Bool { client.isConnected }

    /// Disconnects and waits for the network thread to end.
    public func close() async {
        await client.shutdown()
    }

    /// Subscribes and returns once the broker has processed the subscription.
    public func subscribe(_ filter: String, qos: Int = 1) async throws {
        client.subscribe(filter, qos: qos)
        try await sync()
    }

    /// Round trip through the broker: everything this client sent before is processed when it returns.
    public func sync(timeout: Duration = .seconds(10)) async throws {
        let topic = store.syncPrefix + String(syncCounter.add(1, ordering: .relaxed).newValue)
        try await waitUntil("sync message \(topic)", timeout: timeout) {
            if store.sawSync(topic) { return true }
            if client.isConnected { client.publish(topic, payload: [1], qos: 0, retain: false) }
            try await Task.sleep(for: .milliseconds(30))
            return store.sawSync(topic)
        }
    }

    /// Publishes raw bytes.
    public func publish(_ topic: String, bytes: [UInt8], qos: Int = 1, retain: Bool = false) {
        client.publish(topic, payload: bytes, qos: qos, retain: retain)
    }

    /// Publishes text.
    public func publish(_ topic: String, _ text: String, qos: Int = 1, retain: Bool = false) {
        publish(topic, bytes: Array(text.utf8), qos: qos, retain: retain)
    }

    /// Publishes a JSON document.
    public func publish(_ topic: String, json: JSONValue, qos: Int = 1, retain: Bool = false) {
        publish(topic, bytes: json.jsonBytes, qos: qos, retain: retain)
    }

    /// Every message received so far (since the last `clear()`).
    public var messages: [ReceivedMessage] { store.all }

    /// Messages whose topic matches an MQTT filter (`+` and `#` allowed).
    public func messages(on filter: String) -> [ReceivedMessage] {
        store.all.filter { TopicFilter.matches(filter, $0.topic) }
    }

    /// The index the next message will get; pass it as `after` to wait only for newer messages.
    public var mark: Int { store.next }

    /// Forgets received messages.
    public func clear() { store.clear() }

    /// The first message (at or after `after`) on a topic matching `topic` that satisfies `predicate`.
    @discardableResult
    public func waitForMessage(
        topic: String, after: Int = 0, timeout: Duration = .seconds(30),
        where predicate: @Sendable (ReceivedMessage) -> Bool = { _ in true }
    ) async throws -> ReceivedMessage {
        do {
            return try await waitForValue("a message on \(topic)", timeout: timeout) {
                store.all.first { $0.index >= after && TopicFilter.matches(topic, $0.topic) && predicate($0) }
            }
        } catch let failure as TestFailure {
            let seen = messages(on: topic).map(\.description).joined(separator: "\n  ")
            throw TestFailure("\(failure.message); received on that topic:\n  \(seen.isEmpty ? "nothing" : seen)")
        }
    }
}

/// MQTT topic filter matching.
public enum TopicFilter {
    /// Whether `topic` matches `filter` (`+` one level, trailing `#` any levels).
    public static func matches(_ filter: String, _ topic: String) -> Bool {
        let filterLevels = filter.split(separator: "/", omittingEmptySubsequences: false)
        let topicLevels = topic.split(separator: "/", omittingEmptySubsequences: false)
        for (index, level) in filterLevels.enumerated() {
            if level == "#" { return true }
            guard index < topicLevels.count else { return false }
            if level != "+" && level != topicLevels[index] { return false }
        }
        return filterLevels.count == topicLevels.count
    }
}

/// Nanoseconds on CLOCK_MONOTONIC, the clock the benchmark's C programs print.
public func monotonicNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}
