/// The LIFX rate limit as the `X-RateLimit-*` headers describe it, without I/O: callers ask how long to wait.
public struct RateBudget: Sendable, Equatable {
    /// Who is asking: polls give way to commands when the budget runs low.
    public enum Purpose: Sendable { case write, poll }

    public private(set) var limit: Int
    public private(set) var remaining: Int
    /// Epoch seconds when the window resets.
    public private(set) var resetAt: Double?
    /// After a 429, nothing is sent before this epoch time.
    public private(set) var blockedUntil: Double?
    /// Polls wait for the next window once no more than this many requests are left.
    public let pollReserve: Int

    /// Creates a budget with the documented default of 120 requests a minute.
    public init(limit: Int = 120, pollReserve: Int = 20) {
        self.limit = limit
        self.remaining = limit
        self.pollReserve = pollReserve
    }

    /// Seconds to wait before sending, or nil to send now.
    public func delay(for purpose: Purpose, now: Double) -> Double? {
        if let blockedUntil, blockedUntil > now { return blockedUntil - now }
        guard let resetAt, resetAt > now else { return nil }
        if remaining <= 0 { return resetAt - now }
        if purpose == .poll, remaining <= pollReserve { return resetAt - now }
        return nil
    }

    /// Counts a request about to be sent.
    public mutating func spend(now: Double) {
        if let resetAt, resetAt <= now {
            remaining = limit
            self.resetAt = nil
        }
        remaining -= 1
    }

    /// Takes the server's figures from a response.
    public mutating func update(limit: Int?, remaining: Int?, reset: Double?) {
        if let limit, limit > 0 { self.limit = limit }
        if let remaining { self.remaining = remaining }
        if let reset, reset.isFinite { resetAt = reset }
    }

    /// A 429: send nothing until `reset` (or a minute from now if the server did not say).
    public mutating func rateLimited(reset: Double?, now: Double) {
        // A reset that is missing, nonsensical or over an hour away (a misbehaving server) means one minute.
        let sane = reset.flatMap { $0.isFinite && $0 <= now + 3600 ? $0 : nil }
        let until = max(sane ?? now + 60, now + 0.1)
        blockedUntil = until
        resetAt = until
        remaining = 0
    }
}
