import Synchronization

/// The pause between two polls, which a refresh request cuts short: `wake()` ends the pause under way at
/// once, or the next one if none is (a refresh asked for while a poll runs is not lost).
public final class PollPause: Sendable {
    private struct State {
        var pending = false
        var waker: AsyncStream<Void>.Continuation?
    }

    private let state = Mutex(State())
    private let sleep: @Sendable (Duration) async throws -> Void

    /// A pause nobody has woken yet, timed by `clock`.
    public init<C: Clock>(clock: C) where C.Duration == Duration {
        sleep = { try await clock.sleep(until: clock.now.advanced(by: $0), tolerance: nil) }
    }

    /// A pause nobody has woken yet, timed by the continuous clock.
    public convenience init() { self.init(clock: ContinuousClock()) }

    /// Ends the pause under way, or skips the next one.
    public func wake() {
        state.withLock { state in
            if let waker = state.waker { waker.yield() } else { state.pending = true }
        }
    }

    /// Waits `interval`, or until woken; false when the task was cancelled.
    public func wait(_ interval: Duration) async -> Bool {
        // A fresh stream per wait: the loser of the race below is cancelled, which ends its stream.
        let (wakeups, waker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let woken = state.withLock { state in
            guard !state.pending else {
                state.pending = false
                return true
            }
            state.waker = waker
            return false
        }
        if woken { return !Task.isCancelled }
        defer { state.withLock { $0.waker = nil } }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { [sleep] in (try? await sleep(interval)) != nil }
            group.addTask {
                for await _ in wakeups { return true }
                return false
            }
            let result = await group.next() ?? false
            group.cancelAll()
            return result && !Task.isCancelled
        }
    }
}
