public import BridgeConfig
public import BridgeCore
import Synchronization

/// Everything the bridge reacts to, in one ordered queue.
public enum BridgeInput: Sendable {
    case transport(TransportEvent)
    case device(DeviceEvent)
    /// A new configuration was read (SIGHUP).
    case reload(Configuration)
    /// Re-reading the configuration failed; the old one stays.
    case reloadFailed(String)
    case timer(BridgeTimer)
    /// Broker messages the inbox refused since the last report.
    case refused([InboxRefusal])
}

/// Work the bridge scheduled for itself.
public enum BridgeTimer: Sendable {
    case flushInventory
    case discoveryWindowClosed
    case republishAfterBirth
    case rediscover(DeviceID)
    case flushSummaries
    /// The cluster's clock: claims, renewals and hand-overs are looked at.
    case clusterTick
    /// This bridge dropped its connection to a device another bridge took over: the claim can say so.
    case clusterReleased(DeviceID)
    /// The state a gained claim carried is due (unless a command for the device applied it first).
    case carried(DeviceID)
    /// States held while the broker was behind are due.
    case flushHeldStates
}

/// The bridge's single input queue: the one hop from the MQTT network thread, drivers and signal handlers
/// into the bridge. Producers never block (a short lock, no allocation beyond the entry); broker messages
/// are bounded and refused past the bound, driver state is merged per device, everything else is kept.
public final class BridgeInbox: Sendable {
    private struct State {
        var queue: InboxQueue
        var waiter: CheckedContinuation<BridgeInput?, Never>?
        /// Closed at graceful shutdown: the consumer gets nil from then on.
        var closed = false
        var filter: InboxFilter?
        var received = 0
        var refused = 0

        /// The waiting consumer, if the queue now has something for it.
        mutating func takeWaiter() -> CheckedContinuation<BridgeInput?, Never>? {
            queue.isEmpty ? nil : waiter.take()
        }
    }

    private let state: Mutex<State>
    /// The bounds this inbox enforces.
    public let limits: InboxLimits

    /// Creates an empty inbox.
    public init(limits: InboxLimits = InboxLimits()) {
        self.limits = limits
        state = Mutex(State(queue: InboxQueue(limits: limits)))
    }

    /// Enqueues an input that is never refused; driver state merges into the device's waiting change.
    public func send(_ input: BridgeInput) {
        let waiter = state.withLock { state -> CheckedContinuation<BridgeInput?, Never>? in
            state.queue.push(input)
            return state.takeWaiter()
        }
        waiter?.resume(returning: nextInput())
    }

    /// Enqueues inputs in order under one lock, waking the consumer once (a driver's batch of changes).
    public func send(contentsOf inputs: [BridgeInput]) {
        let waiter = state.withLock { state -> CheckedContinuation<BridgeInput?, Never>? in
            for input in inputs { state.queue.push(input) }
            return state.takeWaiter()
        }
        waiter?.resume(returning: nextInput())
    }

    /// Enqueues a broker message unless it is irrelevant or a bound is reached; returns whether it was queued.
    @discardableResult
    public func offer(_ message: InboundMessage) -> Bool {
        let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<BridgeInput?, Never>?) in
            state.received += 1
            if let filter = state.filter, !filter.isRelevant(message) { return (false, nil) }
            let accepted = state.queue.offer(message)
            if !accepted { state.refused += 1 }
            return (accepted, state.takeWaiter())
        }
        waiter?.resume(returning: nextInput())
        return accepted
    }

    /// Broker messages offered and refused since start, and the inputs waiting now, for `/metrics`.
    public var counts: InboxCounts {
        state.withLock { InboxCounts(received: $0.received, refused: $0.refused, depth: $0.queue.depth) }
    }

    /// Drops retained replays the bridge would ignore anyway, before they take room in the queue.
    func install(_ filter: InboxFilter) { state.withLock { $0.filter = filter } }

    /// A sink for one driver's events.
    public var deviceSink: DeviceEventSink {
        DeviceEventSink({ [self] event in send(.device(event)) }, all: { [self] events in send(contentsOf: events.map(BridgeInput.device)) })
    }

    /// Where the MQTT client delivers, on its network thread.
    public var transportHandler: @Sendable (TransportEvent) -> Void {
        { [self] event in
            if case .message(let message) = event { offer(message) } else { send(.transport(event)) }
        }
    }

    /// Ends the consumer's inputs (graceful shutdown): a waiting `next()` returns nil at once, and so does every later one.
    func close() {
        state.withLock { state in
            state.closed = true
            return state.waiter.take()
        }?.resume(returning: nil)
    }

    /// The inputs in order, for the bridge's one consumer; ends when the consuming task is cancelled or the inbox closed.
    public var inputs: Inputs { Inputs(inbox: self) }

    /// Waits for the next input; nil once the waiting task is cancelled.
    func next() async -> BridgeInput? {
        if let input = nextInput() { return input }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if !state.queue.isEmpty || Task.isCancelled || state.closed { return true }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume(returning: nextInput()) }
            }
        } onCancel: {
            state.withLock { $0.waiter.take() }?.resume(returning: nil)
        }
    }

    private func nextInput() -> BridgeInput? { state.withLock { $0.closed ? nil : $0.queue.pop() } }

    /// An `AsyncSequence` over the inbox's inputs.
    public struct Inputs: AsyncSequence, Sendable {
        let inbox: BridgeInbox

        /// Creates the iterator.
        public func makeAsyncIterator() -> Iterator { Iterator(inbox: inbox) }

        /// Pulls inputs one at a time.
        public struct Iterator: AsyncIteratorProtocol {
            let inbox: BridgeInbox

            /// The next input, or nil when the consumer was cancelled.
            public mutating func next() async -> BridgeInput? { await inbox.next() }
        }
    }
}

/// What the inbox has seen: messages offered to it (from the broker or a web page), those refused at its
/// bounds, and the inputs waiting.
public struct InboxCounts: Sendable, Equatable {
    public var received: Int
    public var refused: Int
    public var depth: Int
}
