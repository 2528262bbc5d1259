/// Drops repeated and stale adverts by their packet id (BTHome) or counter (ATC, pvvx). Senders repeat each
/// advert several times, and a proxy may reorder them, so an id is taken as new only if it is at most 63 ahead
/// of the last one accepted (modulo 256); the same or an older id is a repeat. A sender silent for longer than
/// `resync` seconds may have restarted its count, so its next id is accepted whatever it is (as bthome-ble does).
public struct PacketFilter: Sendable {
    /// Seconds after the last accepted advert when any id counts as new.
    public let resync: Double
    private var last: (id: UInt8, at: Double)?

    /// Creates a filter that has accepted nothing yet.
    public init(resync: Double = 4) {
        self.resync = resync.isFinite ? max(resync, 0) : 4
    }

    /// Whether the advert with this id is new; if it is, it becomes the last accepted. Times are seconds on a
    /// monotonic clock.
    public mutating func accept(_ id: UInt8, now: Double) -> Bool {
        if let last, now - last.at <= resync {
            let ahead = id &- last.id
            guard ahead != 0, ahead < 64 else { return false }
        }
        last = (id, now)
        return true
    }
}
