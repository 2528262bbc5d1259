/// Signal strength 0.0–1.0 from RSSI, with the Nova SDK's formula.
public enum Signal {
    /// The RSSI value BlueZ and the SDKs use for "no reading".
    public static let unavailableRSSI = 127

    /// `clamp(9 + rssi / 10, 0…5) / 5`: 1.0 at −40 dBm or stronger, 0.8 at −50, 0.1 at −85, 0 at −90 or
    /// weaker; nil for the "unavailable" value 127.
    public static func strength(rssi: Int) -> Double? {
        guard rssi != unavailableRSSI else { return nil }
        return strength(rssi: Double(rssi))
    }

    /// The formula for an averaged, fractional RSSI.
    public static func strength(rssi: Double) -> Double {
        guard rssi.isFinite else { return 0 }
        return min(max(9 + rssi / 10, 0), 5) / 5
    }
}

/// The RSSI samples of one device over a short window, averaged as the Nova SDK does before converting to a
/// signal. Memory is bounded: at most `capacity` samples are kept, the oldest dropped first.
public struct SignalWindow: Sendable, Hashable {
    /// How far back samples count, in seconds.
    public let window: Double
    /// The most samples kept.
    public let capacity: Int
    private var samples: [Sample] = []

    private struct Sample: Sendable, Hashable {
        var rssi: Int
        var at: Double
    }

    /// Creates an empty window; the defaults cover a few of the SDK's 0.9 s scans every 4 s.
    public init(window: Double = 10, capacity: Int = 32) {
        self.window = window.isFinite ? max(window, 0) : 10
        self.capacity = max(capacity, 1)
    }

    /// Adds a reading taken at `time` (seconds on a monotonic clock); the "unavailable" value is ignored.
    public mutating func add(rssi: Int, at time: Double) {
        guard rssi != Signal.unavailableRSSI else { return }
        // Samples come in time order: the stale ones are a prefix.
        let stale = samples.firstIndex { $0.at >= time - window } ?? samples.count
        let excess = max(samples.count - stale - capacity + 1, 0)
        if stale + excess > 0 { samples.removeFirst(stale + excess) }
        samples.append(Sample(rssi: rssi, at: time))
    }

    /// The mean RSSI of the samples within the window before `now`. When none is that recent, the latest
    /// reading stands: a device that stops advertising keeps its last value. Nil before the first reading.
    public func rssi(at now: Double) -> Double? {
        guard let latest = samples.last else { return nil }
        // Summed as Double: an absurd value from the bus must not overflow an integer sum.
        var sum = 0.0
        var count = 0
        for sample in samples where sample.at >= now - window {
            sum += Double(sample.rssi)
            count += 1
        }
        guard count > 0 else { return Double(latest.rssi) }
        return sum / Double(count)
    }

    /// The averaged signal, 0.0–1.0, or nil before the first reading.
    public func signal(at now: Double) -> Double? {
        rssi(at: now).map { Signal.strength(rssi: $0) }
    }

    /// When the latest reading was taken.
    public var lastSeen: Double? { samples.last?.at }
}
