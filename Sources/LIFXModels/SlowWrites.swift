/// Since when each light has had a write queued or in flight, so a light shows `busy` only once its write is
/// slow. A write that lands within the threshold (most do) is then one state message, not three (the new
/// state, the same with `busy`, again with `ready`); a write held up by the rate limit or a slow cloud still
/// shows `busy` until it lands.
public struct SlowWrites: Sendable {
    private struct Entry: Sendable {
        var since: ContinuousClock.Instant
        /// Whether `takeDue` has already named this light.
        var named = false
    }

    /// How long a write waits before its light counts as busy.
    public let threshold: Duration
    private var entries: [String: Entry] = [:]

    /// Tracks nothing yet.
    public init(threshold: Duration) { self.threshold = max(threshold, .zero) }

    /// Notes whether the light has a write waiting at `now`; returns true when a wait begins (a new deadline).
    @discardableResult
    public mutating func note(_ id: String, waiting: Bool, now: ContinuousClock.Instant) -> Bool {
        guard waiting else {
            entries[id] = nil
            return false
        }
        guard entries[id] == nil else { return false }
        entries[id] = Entry(since: now)
        return true
    }

    /// Whether the light's write has waited at least the threshold by `now`.
    public func isSlow(_ id: String, now: ContinuousClock.Instant) -> Bool {
        guard let entry = entries[id] else { return false }
        return now - entry.since >= threshold
    }

    /// The earliest moment a waiting light not yet named turns slow.
    public var nextDeadline: ContinuousClock.Instant? {
        entries.values.lazy.filter { !$0.named }.map { $0.since + threshold }.min()
    }

    /// The lights that turned slow by `now` and were not named before, sorted; each is named once per wait.
    public mutating func takeDue(now: ContinuousClock.Instant) -> [String] {
        var due: [String] = []
        for (id, entry) in entries where !entry.named && now - entry.since >= threshold {
            entries[id]?.named = true
            due.append(id)
        }
        return due.sorted()
    }
}
