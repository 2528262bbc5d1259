/// The ingest rule: when a device's readings are weighed by its `StateThrottle`. Time is cut into periods of
/// `period` seconds; a device's readings are weighed at the end of the batch of adverts that brought them,
/// unless the device was already weighed in the same period; then they wait, merged with any that follow, and
/// are weighed at the next period's start, whether or not more adverts come. So a device is weighed at most
/// once a period (a state costs the broker and every subscriber far more than an advert costs the driver), a
/// value waits at most one period, and the last values of a burst always go out. Without I/O; times are
/// seconds on a monotonic clock, from the caller.
public struct ReadingPacer<Key: Hashable & Sendable>: Sendable {
    /// The period, in seconds.
    public let period: Double
    /// The period now running, as a multiple of `period`.
    private var current = Int.min
    /// The devices weighed in the current period.
    private var weighed: Set<Key> = []
    /// The devices waiting for the next period, in the order they began to wait.
    private var waiting: [Key] = []
    private var isWaiting: Set<Key> = []

    /// Creates a pacer that has weighed nothing.
    public init(period: Double) { self.period = period }

    /// The devices whose readings to weigh now, at `now`, given the devices with readings in the batch just
    /// handled (each once): first those that waited for a period that has begun, then those of the batch not
    /// yet weighed in this period. The others wait; call again (with no devices) at `nextPeriod`.
    public mutating func settle(_ arrived: [Key], at now: Double) -> [Key] {
        var ready: [Key] = []
        // Those weighed at this period's start: their readings include the batch's.
        var released: Set<Key> = []
        let index = Int((now / period).rounded(.down))
        if index != current {
            current = index
            weighed.removeAll(keepingCapacity: true)
            swap(&ready, &waiting)
            swap(&released, &isWaiting)
            weighed.formUnion(ready)
        }
        for key in arrived where !isWaiting.contains(key) {
            if weighed.insert(key).inserted {
                ready.append(key)
            } else if !released.contains(key) {
                waiting.append(key)
                isWaiting.insert(key)
            }
        }
        return ready
    }

    /// When the waiting devices are due (the next period's start), or nil when none waits.
    public var nextPeriod: Double? { waiting.isEmpty ? nil : Double(current + 1) * period }
}
