/// What this bridge tells the others about how well it hears one device: an exponential average of the RSSI
/// plus the bridge's calibration offset, shared at most every `interval` and at once when it moved by 6 dB or more.
public struct SharedSignal: Sendable {
    /// Weight of each new reading in the average.
    public static let alpha = 0.3
    /// A move this large is shared at once.
    public static let jump = 6.0

    public private(set) var average: Double?
    private var shared: (value: Double, at: ContinuousClock.Instant)?

    /// Starts with nothing heard.
    public init() {}

    /// Whether the last value `add` returned moved by `jump` or more (to be sent without waiting).
    public private(set) var jumped = false

    /// Takes a reading; returns the value to share now, if one is due.
    public mutating func add(
        rssi: Int, offset: Double, interval: Duration, now: ContinuousClock.Instant
    ) -> Double? {
        let reading = Double(rssi) + offset
        let value = average.map { $0 + Self.alpha * (reading - $0) } ?? reading
        average = value
        jumped = shared.map { abs(value - $0.value) >= Self.jump } ?? false
        if let shared, now - shared.at < interval, !jumped { return nil }
        let rounded = (value * 10).rounded() / 10
        shared = (rounded, now)
        return rounded
    }
}
