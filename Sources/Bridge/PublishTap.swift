import Synchronization

/// One message the bridge published under its base topic, as an in-process reader gets it.
public struct TapMessage: Sendable, Equatable {
    /// The topic relative to the base topic (`bridge/info`, `kitchen`).
    public var topic: String
    /// The payload as published; empty clears a retained topic.
    public var payload: [UInt8]
    /// Whether it was published retained (a newer one on its topic replaces it).
    public var retained: Bool
    /// The publish's place in the tap's order, the same for every reader: what a reader may key work it
    /// shares with the others on (the web frontend builds each frame once for all its sockets).
    public var sequence: UInt64

    /// Creates a message.
    public init(topic: String, payload: [UInt8], retained: Bool, sequence: UInt64 = 0) {
        self.topic = topic
        self.payload = payload
        self.retained = retained
        self.sequence = sequence
    }
}

/// How much one reader may fall behind before it is dropped.
public struct TapLimits: Sendable, Equatable {
    /// Messages waiting for the reader.
    public var messages: Int
    /// Their topics' and payloads' bytes.
    public var bytes: Int

    /// Creates limits; the defaults hold a full refresh of a few hundred devices.
    public init(messages: Int = 4096, bytes: Int = 4 << 20) {
        self.messages = messages
        self.bytes = bytes
    }
}

/// The bridge's publishes under its base topic, for readers in the same process (the web frontend): the
/// retained ones kept as the snapshot a new reader starts from, and every publish offered to each reader's
/// bounded buffer. Offering never blocks or grows without bound: a reader past its limits is dropped and
/// told through `onOverflow`, so a stalled reader never slows the bridge.
public final class PublishTap: Sendable {
    private struct State {
        var retained: [String: TapMessage] = [:]
        var readers: [Int: TapSubscription] = [:]
        var nextID = 0
        var published = 0
    }

    private let prefix: String
    /// In a cluster the bridge's own API is under `bridge/<bridge_id>/`; readers see it at `bridge/`, as alone.
    private let ownAPI: String?
    private let limits: TapLimits
    private let state = Mutex(State())

    /// A tap for the publishes under `base`; with a `bridgeID` (a cluster) that bridge's API reads as `bridge/…`.
    public init(base: String, bridgeID: String? = nil, limits: TapLimits = TapLimits()) {
        prefix = base + "/"
        ownAPI = bridgeID.map { "bridge/\($0)/" }
        self.limits = limits
    }

    /// A topic relative to the base, as readers see it.
    func relative(_ topic: String) -> String {
        let relative = String(topic.dropFirst(prefix.count))
        guard let ownAPI, relative.hasPrefix(ownAPI) else { return relative }
        return "bridge/" + relative.dropFirst(ownAPI.count)
    }

    /// Every message the bridge published, under its base or not.
    public var publishedCount: Int { state.withLock { $0.published } }

    /// The retained message held for a topic relative to the base.
    public func retained(_ topic: String) -> [UInt8]? { state.withLock { $0.retained[topic]?.payload } }

    /// How many readers are subscribed.
    public var readerCount: Int { state.withLock { $0.readers.count } }

    /// Called by the bridge's publish path for each publish, in order.
    public func record(topic: String, payload: [UInt8], retain: Bool) {
        let dropped = state.withLock { state -> [TapSubscription] in
            state.published += 1
            guard topic.hasPrefix(prefix) else { return [] }
            let message = TapMessage(
                topic: relative(topic), payload: payload, retained: retain, sequence: UInt64(state.published))
            if retain { state.retained[message.topic] = payload.isEmpty ? nil : message }
            var dropped: [TapSubscription] = []
            for (id, reader) in state.readers where !reader.offer(message) {
                state.readers[id] = nil
                dropped.append(reader)
            }
            return dropped
        }
        // Outside the lock: the handler closes a socket, which must not wait on the bridge's publishes.
        for reader in dropped { reader.onOverflow() }
    }

    /// The retained messages now held (the bridge's state first, then the rest by topic) and a subscription to
    /// every publish after them, taken together so nothing falls between the two.
    public func subscribe(
        onOverflow: @escaping @Sendable () -> Void = {}
    ) -> (snapshot: [TapMessage], subscription: TapSubscription) {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            let reader = TapSubscription(id: id, limits: limits, tap: self, onOverflow: onOverflow)
            state.readers[id] = reader
            let snapshot = state.retained.values.sorted { Self.order($0.topic) < Self.order($1.topic) }
            return (snapshot, reader)
        }
    }

    func remove(_ id: Int) { _ = state.withLock { $0.readers.removeValue(forKey: id) } }

    /// `bridge/state`, `bridge/info`, `bridge/devices` first, so a page knows the bridge before its devices.
    private static func order(_ topic: String) -> (Int, String) {
        switch topic {
        case "bridge/state": (0, topic)
        case "bridge/info": (1, topic)
        case "bridge/devices": (2, topic)
        default: (topic.hasPrefix("bridge/") ? 3 : 4, topic)
        }
    }
}
