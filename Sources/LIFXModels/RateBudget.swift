import BridgeCore
import Support

/// The LIFX rate limit as the `X-RateLimit-*` headers describe it, without I/O: callers ask how long to wait.
/// Times are epoch seconds by the host's clock (see `RateReset`).
public struct RateBudget: Sendable {
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
    /// Spacing of retries while 429s repeat; its first delay is the shortest wait after any 429.
    private var limitedBackoff: Backoff

    /// The shortest wait after a 429, whatever reset the cloud named.
    public static let minimumLimitedWait = Duration.seconds(1)

    /// Creates a budget with the documented default of 120 requests a minute; `random` spreads the
    /// back-off after repeated 429s (replaceable for deterministic tests).
    public init(
        limit: Int = 120, pollReserve: Int = 20,
        random: @escaping @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
    ) {
        self.limit = limit
        self.remaining = limit
        self.pollReserve = pollReserve
        limitedBackoff = Backoff(initial: Self.minimumLimitedWait, maximum: .seconds(60), random: random)
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

    /// Takes the server's figures from a successful response, which also ends any 429 back-off.
    public mutating func update(limit: Int?, remaining: Int?, reset: Double?) {
        limitedBackoff.reset()
        if let limit, limit > 0 { self.limit = limit }
        if let remaining { self.remaining = remaining }
        if let reset, reset.isFinite { resetAt = reset }
    }

    /// A 429: send nothing until `reset` (or a minute from now if the server did not say), but never
    /// sooner than the back-off allows: at least a second, longer with each 429 in a row. A reset that
    /// has already passed (clock skew, rounding) would otherwise mean a refused request every moment.
    /// Returns the wait in seconds.
    @discardableResult
    public mutating func rateLimited(reset: Double?, now: Double) -> Double {
        // A reset that is missing, nonsensical or over an hour away (a misbehaving server) means one minute.
        let sane = reset.flatMap { $0.isFinite && $0 <= now + 3600 ? $0 : nil }
        let until = max(sane ?? now + 60, now + limitedBackoff.next().inSeconds)
        blockedUntil = until
        resetAt = until
        remaining = 0
        return until - now
    }
}
