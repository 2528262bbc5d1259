/// A token bucket: at most `capacity` takes at once, then one more per `interval`. A pure value, stepped with the
/// instants its owner passes in, so a table of times tests it without waiting.
public struct TokenBucket: Sendable, Equatable {
    /// The most tokens held: what may be taken at once after a quiet spell.
    public let capacity: Int
    /// The time one token takes to come back; nil when none ever comes back.
    public let interval: Duration?
    /// Tokens left, as of `refilledAt`.
    private var tokens: Int
    /// The instant from which the next token is counted; nil until the first take.
    private var refilledAt: ContinuousClock.Instant?

    /// A full bucket of `capacity` tokens (0 or more), refilled at `perMinute` tokens a minute (0: never).
    public init(capacity: Int, perMinute: Int) {
        self.capacity = max(capacity, 0)
        interval = perMinute > 0 ? .seconds(60) / perMinute : nil
        tokens = self.capacity
    }

    /// Takes a token at `now` if one is left; false when the bucket is empty.
    public mutating func take(at now: ContinuousClock.Instant) -> Bool {
        refill(at: now)
        guard tokens > 0 else { return false }
        tokens -= 1
        return true
    }

    /// The tokens left at `now`.
    public mutating func available(at now: ContinuousClock.Instant) -> Int {
        refill(at: now)
        return tokens
    }

    /// Adds the tokens come back since `refilledAt`; a full bucket counts from `now` again.
    private mutating func refill(at now: ContinuousClock.Instant) {
        guard let start = refilledAt, tokens < capacity, let interval else {
            refilledAt = now
            return
        }
        // An instant before the last step (a caller's clock read out of order) adds nothing.
        guard now > start else { return }
        let gained = Int(((now - start) / interval).rounded(.down))
        guard gained > 0 else { return }
        if gained >= capacity - tokens {
            tokens = capacity
            refilledAt = now
        } else {
            tokens += gained
            refilledAt = start + interval * gained
        }
    }
}
