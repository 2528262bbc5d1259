import BridgeCore

/// One bridge's shared signal for a device, as it arrived, with what lowers that bridge's score for it.
struct Observation: Sendable {
    var rssi: Double
    var at: ContinuousClock.Instant
    /// The bridge would connect the device if it owned it, so it needs a free connection slot for it.
    var connects = false
    /// The bridge holds (or is making) the device's connection: a slot is spent on it already.
    var holds = false
    /// The bridge's connects of the device that failed in a row.
    var failures = 0
}

/// What the cluster knows about one device: its claim, every bridge's recent observation and the hand-over
/// lead being counted. A value stepped by the `ClusterState` that holds it.
struct DeviceOwnership: Sendable {
    var claim: Claim?
    /// When the claim (or its last renewal) arrived here: validity is measured on arrival, not by clocks.
    var claimAt: ContinuousClock.Instant?
    /// When the claim naming a bridge that must let the device go arrived here (see `Claim.release`).
    var releaseSince: ContinuousClock.Instant?
    /// Shared signals by bridge, with their arrival.
    var observations: [String: Observation] = [:]
    /// Since when no valid claim has been seen, while this bridge is a candidate.
    var unclaimedSince: ContinuousClock.Instant?
    /// The challenger leading by enough, for how many windows in a row, and when the current window began.
    var lead: (bridge: String, windows: Int)?
    var windowStart: ContinuousClock.Instant?
    /// Bridges that lost this device, and when.
    var lost: [String: ContinuousClock.Instant] = [:]
    /// The term of the claim this bridge passed to another, until that claim comes back from the broker.
    var passing: Int?
    /// The room it is in, decided by its owner.
    var room = RoomPresence()
    /// While this bridge owns the device: its settable state as this bridge last published it, which a claim
    /// passed to another bridge carries.
    var settable: JSONValue?

    /// When any bridge first heard the device: nobody claims it before the others had an interval to say
    /// how well they hear it.
    var firstHeard: ContinuousClock.Instant?

    /// Notes an observation for ownership and for the room.
    mutating func observe(_ bridge: String, _ observation: Observation) {
        if firstHeard == nil { firstHeard = observation.at }
        observations[bridge] = observation
        room.note(bridge, rssi: observation.rssi)
    }

    /// The fresh observations by score, best first (ties: the higher bridge id first).
    func ranked(
        now: ContinuousClock.Instant, life: Duration, alive: (String) -> Bool, score: (String, Observation) -> Double
    ) -> [(bridge: String, score: Double)] {
        observations.filter { now - $0.value.at <= life && alive($0.key) }
            .map { (bridge: $0.key, score: score($0.key, $0.value)) }
            .sorted { ($0.score, $0.bridge) > ($1.score, $1.bridge) }
    }
}
