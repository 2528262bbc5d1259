/// A message delivered by the broker.
public struct InboundMessage: Sendable {
    public var topic: String
    public var payload: [UInt8]
    /// Set when the broker replayed a retained message rather than a live publish.
    public var retained: Bool
    /// The size of a payload too large to keep: `payload` is then empty and the sender gets an error.
    public var droppedPayloadSize: Int?

    /// Creates an inbound message.
    public init(topic: String, payload: [UInt8], retained: Bool, droppedPayloadSize: Int? = nil) {
        self.topic = topic
        self.payload = payload
        self.retained = retained
        self.droppedPayloadSize = droppedPayloadSize
    }
}

/// What the transport tells the bridge.
public enum TransportEvent: Sendable {
    case connected
    case disconnected(reason: String)
    case message(InboundMessage)
    /// The broker took enough of what was outstanding: the transport, backlogged a moment ago, no longer is.
    /// Sent once per backlog, so states held meanwhile go out at once rather than at the next retry.
    case caughtUp
}

/// The bridge's view of MQTT. Implementations keep subscriptions across reconnects, re-publish
/// every retained message they hold after a reconnect, and never block the caller.
public protocol MQTTTransport: Sendable {
    /// Publishes; an empty retained payload deletes the retained message.
    func publish(_ topic: String, payload: [UInt8], qos: Int, retain: Bool)
    /// Subscribes now (if connected) and after every reconnect.
    func subscribe(_ filter: String, qos: Int)
    /// Drops a subscription.
    func unsubscribe(_ filter: String)
    /// Whether the broker is behind: so many messages are still unwritten or unacknowledged that a state
    /// publish should wait (and merge with the device's next state) rather than queue behind them.
    var isBacklogged: Bool { get }
}

extension MQTTTransport {
    /// A transport that never falls behind.
    public var isBacklogged: Bool { false }
}
