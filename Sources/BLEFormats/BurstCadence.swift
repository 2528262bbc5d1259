/// When the readings held in `PendingReadings` are weighed and their states go out: after every batch of
/// adverts, except while a burst goes on, when at most every `interval`, each time with the newest values. A
/// state costs the broker and every subscriber far more than an advert costs the driver; the burst's end lets
/// what is held go at once. Without I/O; times are seconds on a monotonic clock.
public struct BurstCadence: Sendable, Equatable {
    /// The least time between two settlings while a burst goes on, in seconds.
    public let interval: Double
    private var settledAt: Double?

    /// Creates a cadence that has settled nothing yet.
    public init(interval: Double) { self.interval = interval }

    /// Whether a batch just handled settles its readings: true also records it as the last settling.
    public mutating func settles(burstGoesOn: Bool, at now: Double) -> Bool {
        if burstGoesOn, let settledAt, now - settledAt < interval { return false }
        settledAt = now
        return true
    }
}
