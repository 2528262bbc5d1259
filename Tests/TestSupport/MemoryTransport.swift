public import BridgeCore
import Synchronization

/// An in-memory `MQTTTransport`: what a broker does for one client, without a socket. Publishes are recorded,
/// retained ones kept, and subscribing replays matching retained messages, so bridge logic is tested in
/// milliseconds; what only a real broker shows stays in the broker-backed tests.
public final class MemoryTransport: MQTTTransport {
    /// One message the bridge published.
    public struct Published: Sendable {
        public var topic: String
        public var payload: [UInt8]
        public var qos: Int
        public var retain: Bool
        /// Position in the publish log, for `after:` waits.
        public var index: Int

        /// The payload parsed as JSON, if it is JSON.
        public var json: JSONValue? { JSONValue.parse(payload) }
        /// The payload as text.
        public var text: String { String(decoding: payload, as: UTF8.self) }
    }

    private struct State {
        var log: [Published] = []
        var retained: [String: [UInt8]] = [:]
        var subscriptions: [String: Int] = [:]
        var deliver: (@Sendable (TransportEvent) -> Void)?
        var backlogged = false
    }

    private let state = Mutex(State())

    /// Creates an empty transport; `attach` connects it to the bridge's inbox.
    public init(retained: [String: [UInt8]] = [:]) { state.withLock { $0.retained = retained } }

    /// Where messages for the bridge go (the inbox's transport handler).
    public func attach(_ deliver: @escaping @Sendable (TransportEvent) -> Void) { state.withLock { $0.deliver = deliver } }

    /// Records a publish; retained ones replace (or, when empty, delete) the topic's retained message.
    public func publish(_ topic: String, payload: [UInt8], qos: Int, retain: Bool) {
        state.withLock { state in
            state.log.append(Published(topic: topic, payload: payload, qos: qos, retain: retain, index: state.log.count))
            if retain { state.retained[topic] = payload.isEmpty ? nil : payload }
        }
    }

    /// Subscribes and replays the retained messages the filter matches, as a broker does.
    public func subscribe(_ filter: String, qos: Int) {
        let (deliver, replay) = state.withLock { state in
            state.subscriptions[filter] = qos
            return (state.deliver, state.retained.filter { TopicFilter.matches(filter, $0.key) }.sorted { $0.key < $1.key })
        }
        for (topic, payload) in replay {
            deliver?(.message(InboundMessage(topic: topic, payload: payload, retained: true)))
        }
    }

    /// Whether the bridge is told the broker is behind (set by `setBacklogged`).
    public var isBacklogged: Bool { state.withLock { $0.backlogged } }

    /// Makes the transport report a broker that is behind, or caught up again.
    public func setBacklogged(_ backlogged: Bool) { state.withLock { $0.backlogged = backlogged } }

    /// Drops a subscription.
    public func unsubscribe(_ filter: String) { _ = state.withLock { $0.subscriptions.removeValue(forKey: filter) } }

    /// A message from another client: delivered to the bridge if one of its subscriptions matches.
    @discardableResult
    public func inject(_ topic: String, _ payload: [UInt8], retained: Bool = false) -> Bool {
        let deliver = state.withLock { state in
            state.subscriptions.keys.contains { TopicFilter.matches($0, topic) } ? state.deliver : nil
        }
        deliver?(.message(InboundMessage(topic: topic, payload: payload, retained: retained)))
        return deliver != nil
    }

    /// The filters subscribed now.
    public var subscriptions: Set<String> { state.withLock { Set($0.subscriptions.keys) } }

    /// Whether a message on `topic` would reach the bridge.
    public func reaches(_ topic: String) -> Bool { state.withLock { $0.subscriptions.keys.contains { TopicFilter.matches($0, topic) } } }

    /// Everything published so far, in order.
    public var published: [Published] { state.withLock { $0.log } }

    /// How many messages were published so far: a mark for `after:`.
    public var mark: Int { state.withLock { $0.log.count } }

    /// The retained message on a topic.
    public func retained(_ topic: String) -> [UInt8]? { state.withLock { $0.retained[topic] } }

    /// The retained topics that match a filter.
    public func retainedTopics(matching filter: String) -> [String] {
        state.withLock { $0.retained.keys.filter { TopicFilter.matches(filter, $0) }.sorted() }
    }
}
