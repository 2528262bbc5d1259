public import BridgeConfig
public import BridgeCore

/// Everything the bridge reacts to, in one ordered queue.
public enum BridgeInput: Sendable {
    case transport(TransportEvent)
    case device(DeviceEvent)
    /// A new configuration was read (SIGHUP).
    case reload(Configuration)
    /// Re-reading the configuration failed; the old one stays.
    case reloadFailed(String)
    case timer(BridgeTimer)
}

/// Work the bridge scheduled for itself.
public enum BridgeTimer: Sendable {
    case flushInventory
    case discoveryWindowClosed
    case republishAfterBirth
    case rediscover(DeviceID)
}

/// The bridge's single input queue; drivers, the transport and signal handlers only enqueue.
public final class BridgeInbox: Sendable {
    let stream: AsyncStream<BridgeInput>
    private let continuation: AsyncStream<BridgeInput>.Continuation

    /// Creates an empty inbox.
    public init() {
        (stream, continuation) = AsyncStream.makeStream(of: BridgeInput.self)
    }

    /// Enqueues an input; never blocks.
    public func send(_ input: BridgeInput) { continuation.yield(input) }

    /// A sink for one driver's events.
    public var deviceSink: DeviceEventSink {
        DeviceEventSink { [continuation] event in continuation.yield(.device(event)) }
    }

    /// A handler for transport events.
    public var transportHandler: @Sendable (TransportEvent) -> Void {
        { [continuation] event in continuation.yield(.transport(event)) }
    }
}
