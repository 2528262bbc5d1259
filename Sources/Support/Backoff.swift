// Glibc for pow: the module depends on nothing but the standard library and the C library.
import Glibc

/// Capped exponential back-off with jitter: how long to wait before each retry of something that keeps failing.
///
/// The n-th delay since the last `reset()` is `initial × multiplierⁿ`, capped at `maximum`, then spread by a
/// random factor in `1 ± jitter` so many clients that failed together do not retry together, and finally
/// clamped into `initial...maximum`: a retry never comes sooner than `initial` nor later than `maximum`.
/// With the defaults (×2, ±20 %) every delay is longer than the one before until the cap.
public struct Backoff: Sendable {
    /// The first delay, and the shortest any delay may be.
    public let initial: Duration
    /// The longest any delay may be.
    public let maximum: Duration
    /// How much each failure multiplies the delay.
    public let multiplier: Double
    /// The relative spread of each delay, 0 (none) to 1.
    public let jitter: Double
    /// Delays handed out since the last success.
    public private(set) var failures = 0
    private let random: @Sendable (ClosedRange<Double>) -> Double

    /// Creates a back-off; out-of-range figures are clamped (`maximum` ≥ `initial` ≥ 0, `multiplier` ≥ 1,
    /// `jitter` in 0...1). `random` picks a number in a range, replaceable for deterministic tests.
    public init(
        initial: Duration, maximum: Duration, multiplier: Double = 2, jitter: Double = 0.2,
        random: @escaping @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
    ) {
        self.initial = max(initial, .zero)
        self.maximum = max(maximum, self.initial)
        self.multiplier = multiplier.isFinite ? max(multiplier, 1) : 1
        self.jitter = jitter.isFinite ? min(max(jitter, 0), 1) : 0
        self.random = random
    }

    /// The delay before the next attempt; each call counts one more failure.
    public mutating func next() -> Duration {
        let low = initial.inSeconds
        let high = maximum.inSeconds
        // pow overflows to infinity after enough failures, which the cap absorbs (0 × ∞ would not be).
        let base = low > 0 ? min(low * pow(multiplier, Double(failures)), high) : 0
        failures += 1
        let factor = jitter > 0 ? random((1 - jitter)...(1 + jitter)) : 1
        let spread = factor.isFinite ? base * factor : base
        return .seconds(min(max(spread, low), high))
    }

    /// The instant of the next attempt on any clock measured in `Duration`: `now` plus `next()`.
    public mutating func next<Instant: InstantProtocol>(after now: Instant) -> Instant where Instant.Duration == Duration {
        now.advanced(by: next())
    }

    /// After a success: the next delay is `initial` again.
    public mutating func reset() {
        failures = 0
    }
}
