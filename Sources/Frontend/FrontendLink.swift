public import Bridge
public import BridgeCore

/// What the frontend needs of the bridge, and nothing else: its publishes (the tap), the one input path for
/// what a page sends (the inbox, as if the broker had delivered it), and the broker connection's state.
public struct FrontendLink: Sendable {
    /// The bridge's publishes under its base topic.
    public let tap: PublishTap
    /// The bridge's input queue.
    public let inbox: BridgeInbox
    /// The base topic every frame's topic is relative to.
    public let base: String
    /// Whether the MQTT client is connected to the broker now.
    public let isConnected: @Sendable () -> Bool
    /// The process's recent log lines, which the page downloads; nil when the process keeps none.
    public let logs: LogRing?
    /// In a cluster, this bridge's id: a page's `bridge/request/…` goes to `bridge/<id>/request/…`, as the tap
    /// shows the bridge's own API at `bridge/`.
    public let bridgeID: String?

    /// Creates a link.
    public init(
        tap: PublishTap, inbox: BridgeInbox, base: String, isConnected: @escaping @Sendable () -> Bool, logs: LogRing? = nil,
        bridgeID: String? = nil
    ) {
        self.bridgeID = bridgeID
        self.tap = tap
        self.inbox = inbox
        self.base = base
        self.isConnected = isConnected
        self.logs = logs
    }

    /// Hands a page's frame to the bridge exactly as the same MQTT message would arrive; false when refused.
    func deliver(_ frame: ClientFrame) -> Bool {
        inbox.offer(InboundMessage(topic: base + "/" + topic(of: frame), payload: frame.payload, retained: false))
    }

    /// The frame's topic relative to the base, with the bridge's own API under its id in a cluster.
    func topic(of frame: ClientFrame) -> String {
        guard let bridgeID, frame.topic.hasPrefix("bridge/request/") else { return frame.topic }
        return "bridge/\(bridgeID)/" + frame.topic.dropFirst("bridge/".count)
    }
}
