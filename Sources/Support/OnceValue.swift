import Dispatch
import Synchronization

/// A value set once (the first `set` wins) by one thread and awaited by any number of tasks, with or without
/// a deadline.
///
/// Waiting ignores task cancellation on purpose: what it waits for always comes, bounded by the setter's own
/// timeouts or the deadline, and a shutdown that is itself being cancelled must still wait for the flush it
/// started.
public final class OnceValue<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [Int: CheckedContinuation<Value?, Never>] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// An unset value.
    public init() {}

    /// Stores the value and wakes every waiter; later calls are ignored.
    public func set(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value?, Never>] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// The value, once set.
    public var value: Value? { state.withLock { $0.value } }

    /// Waits until the value is set.
    public func wait() async -> Value {
        // Without a deadline only `set` resumes the waiter, and it always passes a value.
        await park(expiring: nil)!
    }

    /// The value once set, or nil if `deadline` on the continuous clock passes first.
    public func wait(until deadline: ContinuousClock.Instant) async -> Value? {
        await park { id in
            // A dispatch timer, not a task: a child task would be cancelled with a cancelled waiter and end the
            // wait early, which a shutdown must not do (see above), and a detached one would belong to no service.
            let remaining = max(deadline - .now, .zero)
            let nanoseconds = remaining.components.seconds * 1_000_000_000 + remaining.components.attoseconds / 1_000_000_000
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) { [self] in
                expire(id)
            }
        }
    }

    /// Registers a waiter unless the value is already set; `expiring` starts whatever ends the wait early.
    private func park(expiring: ((Int) -> Void)?) async -> Value? {
        await withCheckedContinuation { continuation in
            let parked = state.withLock { state -> (ready: Value?, id: Int) in
                if let value = state.value { return (value, 0) }
                let id = state.nextID
                state.nextID += 1
                state.waiters[id] = continuation
                return (nil, id)
            }
            if let ready = parked.ready { continuation.resume(returning: ready) } else { expiring?(parked.id) }
        }
    }

    private func expire(_ id: Int) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
    }
}
