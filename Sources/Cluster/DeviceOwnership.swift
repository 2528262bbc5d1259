import BridgeCore

/// What the cluster knows about one device: its claim, every bridge's recent observation and the hand-over
/// lead being counted. A value stepped by the `ClusterState` that holds it.
struct DeviceOwnership: Sendable {
    var claim: Claim?
    /// When the claim (or its last renewal) arrived here: validity is measured on arrival, not by clocks.
    var claimAt: ContinuousClock.Instant?
    /// Shared signals by bridge, with their arrival.
    var observations: [String: (rssi: Double, at: ContinuousClock.Instant)] = [:]
    /// Since when no valid claim has been seen, while this bridge is a candidate.
    var unclaimedSince: ContinuousClock.Instant?
    /// The challenger leading by enough, for how many windows in a row, and when the current window began.
    var lead: (bridge: String, windows: Int)?
    var windowStart: ContinuousClock.Instant?
    /// Bridges that lost this device, and when.
    var lost: [String: ContinuousClock.Instant] = [:]
    /// The room it is in, decided by its owner.
    var room = RoomPresence()

    /// When any bridge first heard the device: nobody claims it before the others had an interval to say
    /// how well they hear it.
    var firstHeard: ContinuousClock.Instant?

    /// Notes an observation for ownership and for the room.
    mutating func observe(_ bridge: String, rssi: Double, at now: ContinuousClock.Instant) {
        if firstHeard == nil { firstHeard = now }
        observations[bridge] = (rssi, now)
        room.note(bridge, rssi: rssi)
    }

    /// The fresh observations, strongest first (ties: the higher bridge id first).
    func ranked(now: ContinuousClock.Instant, life: Duration, alive: (String) -> Bool) -> [(bridge: String, rssi: Double)] {
        observations.filter { now - $0.value.at <= life && alive($0.key) }
            .map { (bridge: $0.key, rssi: $0.value.rssi) }
            .sorted { ($0.rssi, $0.bridge) > ($1.rssi, $1.bridge) }
    }
}
