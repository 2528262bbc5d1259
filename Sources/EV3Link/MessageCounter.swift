/// Message counters for one brick: 1 … 65535, then 1 again, never 0 (some clients treat 0 as "no message",
/// so a reply carrying it could be mistaken for noise).
struct EV3MessageCounter: Sendable, Hashable {
    private(set) var last: UInt16

    /// Starts so that the first counter handed out follows `last` (0 gives 1).
    init(last: UInt16 = 0) { self.last = last }

    /// The next counter.
    mutating func next() -> UInt16 {
        last = last == .max ? 1 : last + 1
        return last
    }
}
