import Synchronization

/// A value set once (the first `set` wins) by one thread and awaited by any number of tasks.
public final class OnceValue<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [CheckedContinuation<Value, Never>] = []
    }

    private let state = Mutex(State())

    /// An unset value.
    public init() {}

    /// Stores the value and wakes every waiter; later calls are ignored.
    public func set(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// The value, once set.
    public var value: Value? { state.withLock { $0.value } }

    /// Waits until the value is set. It ignores cancellation: what it waits for always comes, bounded by the
    /// setter's own timeouts.
    public func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Value? in
                if let value = state.value { return value }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
