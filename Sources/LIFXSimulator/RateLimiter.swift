import Foundation

/// Fixed-window request budget per token, mirroring lifx.md §11.
struct RateLimiter: Sendable {
    /// The outcome of counting one request, with the values for the X-RateLimit headers.
    struct Decision: Sendable, Equatable {
        var allowed: Bool
        var limit: Int
        var remaining: Int
        /// Unix epoch seconds when the budget refills.
        var reset: Int

        /// The three headers every answer carries, with the reset on a clock `clockOffset` seconds off.
        func headers(clockOffset: Int = 0) -> [(String, String)] {
            [
                ("X-RateLimit-Limit", String(limit)),
                ("X-RateLimit-Remaining", String(remaining)),
                ("X-RateLimit-Reset", String(reset + clockOffset)),
            ]
        }
    }

    private struct Window: Sendable {
        var start: Date
        var used: Int
    }

    var limit: Int
    var window: TimeInterval
    /// While set and in the future, every request is refused regardless of budget.
    var forcedUntil: Date?
    private var windows: [String: Window] = [:]

    /// Creates a limiter allowing `limit` requests per `window` seconds.
    init(limit: Int, window: TimeInterval) {
        self.limit = max(0, limit)
        self.window = max(0.001, window)
    }

    /// Counts a request against `token`'s budget.
    mutating func consume(token: String, now: Date) -> Decision {
        if let forced = forcedDecision(now: now) { return forced }
        var current = activeWindow(for: token, now: now)
        current.used += 1
        windows[token] = current
        return decision(current, allowed: current.used <= limit)
    }

    /// Reports `token`'s budget without spending any, for answers that do not count (401).
    mutating func peek(token: String?, now: Date) -> Decision {
        if let forced = forcedDecision(now: now) { return forced }
        let current = token.map { activeWindow(for: $0, now: now) } ?? Window(start: now, used: 0)
        return decision(current, allowed: true)
    }

    private mutating func forcedDecision(now: Date) -> Decision? {
        guard let until = forcedUntil else { return nil }
        guard until > now else {
            forcedUntil = nil
            return nil
        }
        return Decision(allowed: false, limit: limit, remaining: 0, reset: Self.epoch(until))
    }

    private mutating func activeWindow(for token: String, now: Date) -> Window {
        if let existing = windows[token], now < existing.start.addingTimeInterval(window) {
            return existing
        }
        // Rotated tokens would otherwise pile up forever in a long benchmark.
        if windows.count > 64 { windows.removeAll() }
        return Window(start: now, used: 0)
    }

    private func decision(_ current: Window, allowed: Bool) -> Decision {
        Decision(
            allowed: allowed,
            limit: limit,
            remaining: max(0, limit - current.used),
            reset: Self.epoch(current.start.addingTimeInterval(window))
        )
    }

    /// Rounds up so a client sleeping until Reset never returns before the window ends.
    private static func epoch(_ date: Date) -> Int {
        Int(date.timeIntervalSince1970.rounded(.up))
    }
}
