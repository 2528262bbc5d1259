import Synchronization

/// One reader's bounded buffer of the tap's publishes. A retained message replaces a waiting one of the same
/// topic in its place (the newest state wins); past the tap's limits the reader is dropped.
///
/// The bridge offers every publish to every reader, so offering only appends: the replacing is done when the
/// reader takes messages, by the reader's task, or by the offer that would pass a limit (a stalled reader).
public final class TapSubscription: Sendable {
    private struct State {
        var pending: [TapMessage?] = []
        var head = 0
        /// Where a retained topic's waiting message is in `pending`, for the entries before `merged`.
        var waiting: [String: Int] = [:]
        /// Entries from here on were appended without replacing a waiting message of their topic yet.
        var merged = 0
        var count = 0
        var bytes = 0
        var ended = false
        var overflowed = false
        var waiter: CheckedContinuation<TapMessage?, Never>?

        /// Appends without looking at the other waiting messages.
        mutating func append(_ message: TapMessage) {
            pending.append(message)
            count += 1
            bytes += Self.size(message)
        }

        /// Lets each retained message appended since the last merge replace its topic's waiting one in place.
        mutating func merge() {
            while merged < pending.count {
                defer { merged += 1 }
                guard let message = pending[merged], message.retained else { continue }
                if let index = waiting[message.topic], let old = pending[index] {
                    pending[index] = message
                    pending[merged] = nil
                    count -= 1
                    bytes -= Self.size(old)
                } else {
                    waiting[message.topic] = merged
                }
            }
        }

        mutating func pop() -> TapMessage? {
            merge()
            while head < pending.count {
                let message = pending[head]
                pending[head] = nil
                head += 1
                if head >= 256, head * 2 >= pending.count {
                    pending.removeFirst(head)
                    waiting = waiting.mapValues { $0 - head }
                    merged -= head
                    head = 0
                }
                guard let message else { continue }
                count -= 1
                bytes -= Self.size(message)
                if message.retained { waiting[message.topic] = nil }
                return message
            }
            return nil
        }

        static func size(_ message: TapMessage) -> Int { message.topic.utf8.count + message.payload.count }
    }

    private let id: Int
    private let limits: TapLimits
    private let tap: PublishTap
    let onOverflow: @Sendable () -> Void
    private let state = Mutex(State())

    init(id: Int, limits: TapLimits, tap: PublishTap, onOverflow: @escaping @Sendable () -> Void) {
        self.id = id
        self.limits = limits
        self.tap = tap
        self.onOverflow = onOverflow
    }

    /// Whether the reader was dropped for falling behind.
    public var overflowed: Bool { state.withLock { $0.overflowed } }

    /// Queues a message; false (and the buffer freed) when that passes the limits.
    func offer(_ message: TapMessage) -> Bool {
        let (fits, waiter, next) = state.withLock {
            state -> (Bool, CheckedContinuation<TapMessage?, Never>?, TapMessage?) in
            guard !state.ended else { return (true, nil, nil) }
            state.append(message)
            if state.count > limits.messages || state.bytes > limits.bytes {
                // Only a reader this far behind pays for replacing here; it may fit again after.
                state.merge()
            }
            if state.count > limits.messages || state.bytes > limits.bytes {
                state.ended = true
                state.overflowed = true
                state.pending = []
                state.waiting = [:]
                state.merged = 0
                state.head = 0
                state.count = 0
                state.bytes = 0
                return (false, state.waiter.take(), nil)
            }
            guard let waiter = state.waiter.take() else { return (true, nil, nil) }
            return (true, waiter, state.pop())
        }
        waiter?.resume(returning: next)
        return fits
    }

    /// The next message, waiting for one; nil once the subscription ended (cancelled or overflowed) or the
    /// waiting task is cancelled.
    public func next() async -> TapMessage? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> TapMessage?? in
                    if let message = state.pop() { return .some(message) }
                    if state.ended || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            state.withLock { $0.waiter.take() }?.resume(returning: nil)
        }
    }

    /// The next waiting message without waiting for one; nil when none waits.
    public func poll() -> TapMessage? { state.withLock { $0.pop() } }

    /// Ends the subscription: the tap stops offering to it and a waiting `next()` returns nil.
    public func cancel() {
        tap.remove(id)
        let waiter = state.withLock { state -> CheckedContinuation<TapMessage?, Never>? in
            state.ended = true
            state.pending = []
            state.waiting = [:]
            state.merged = 0
            state.head = 0
            return state.waiter.take()
        }
        waiter?.resume(returning: nil)
    }
}
