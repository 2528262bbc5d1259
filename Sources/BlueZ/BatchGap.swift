/// When the BLE driver takes its next batch from the mailbox, the first part of the ingest rule
/// (docs/architecture.md): at once after a batch that came with a wait for a signal, and `gap` after one taken
/// while the bus kept the driver busy, so what comes meanwhile merges per device. Without I/O; the caller
/// passes the time.
struct BatchGap {
    let gap: Duration
    /// When the last batch was taken, if the driver took it without waiting for a signal.
    private var busySince: ContinuousClock.Instant?

    init(gap: Duration) { self.gap = gap }

    /// A batch was taken at `now`; `waited` says whether the driver waited for a signal first.
    mutating func took(at now: ContinuousClock.Instant, waited: Bool) {
        busySince = waited ? nil : now
    }

    /// When the next batch may be taken: nil for at once. Asked once per batch.
    mutating func nextTake() -> ContinuousClock.Instant? {
        defer { busySince = nil }
        return busySince.map { $0 + gap }
    }
}
