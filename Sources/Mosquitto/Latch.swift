import Synchronization

/// A flag that one thread raises and async code awaits with a deadline. Waiting ignores task cancellation on
/// purpose: a shutdown that is itself being cancelled must still wait for the flush it started.
final class Latch: Sendable {
    private struct State {
        var raised = false
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// Raises the flag and wakes every waiter.
    func raise() {
        let waiters = state.withLock { state in
            state.raised = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Whether the flag is up.
    var isRaised: Bool { state.withLock { $0.raised } }

    /// Returns true once raised, or false if `deadline` (when given) passes first.
    func wait(until deadline: ContinuousClock.Instant? = nil) async -> Bool {
        await withCheckedContinuation { continuation in
            let id: Int? = state.withLock { state in
                guard !state.raised else { return nil }
                let id = state.nextID
                state.nextID += 1
                state.waiters[id] = continuation
                return id
            }
            guard let id else { return continuation.resume(returning: true) }
            guard let deadline else { return }
            Task.detached { [self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                expire(id)
            }
        }
    }

    private func expire(_ id: Int) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: false)
    }
}
