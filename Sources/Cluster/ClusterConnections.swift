public import BridgeCore

/// Connections in a cluster: free slots and connect failures lower a bridge's score for a device, and a new owner
/// connects a device only once its previous owner let it go.
extension ClusterState {
    /// A bridge's score for a device: its shared signal, lowered when it would have to connect the device with
    /// no free slot (not while it holds the connection: a slot is spent on it), and when its connects of it
    /// failed again and again. An owner whose slots filled up before it connected the device scores lower too,
    /// so the device moves to a bridge that can connect it.
    func score(_ bridge: String, _ observation: Observation) -> Double {
        var score = observation.rssi
        let slots = bridge == me ? self.slots : peers[bridge]?.slots
        if observation.connects, !observation.holds, slots == 0 { score -= ClusterTimings.slotPenalty }
        if observation.failures >= ClusterTimings.repeatedFailures { score -= ClusterTimings.failurePenalty }
        return score
    }

    /// Whether this bridge may connect the device (or, for a device the cluster does not manage, its own rules
    /// decide).
    public func mayConnect(_ device: DeviceID) -> Bool { devices[device] == nil || connectable.contains(device) }

    /// The free connection slots of this bridge's radios changed: the presence says so.
    public mutating func setSlots(_ free: Int?) -> [ClusterAction] {
        guard free != slots else { return [] }
        slots = free
        return started ? [.publish(topic: topics.presence(me), payload: presence.json, retain: true)] : []
    }

    /// The radios this bridge listens with changed: the presence says so.
    public mutating func setAdapters(_ names: [String]) -> [ClusterAction] {
        guard names != adapters else { return [] }
        adapters = names
        return started ? [.publish(topic: topics.presence(me), payload: presence.json, retain: true)] : []
    }

    /// A connect of the device by this bridge failed; the count goes out with the next shared signal.
    public mutating func connectFailed(_ device: DeviceID, now: ContinuousClock.Instant) {
        let count = failures(of: device, now: now) + 1
        failed[device] = (count, now)
        noteFailures(device, count)
        reconnectFailed(device, now: now)
    }

    /// This bridge connected the device: its failures are forgotten.
    public mutating func connectSucceeded(_ device: DeviceID) {
        guard failed.removeValue(forKey: device) != nil else { return }
        noteFailures(device, 0)
    }

    /// Failures in a row, forgotten `relapse` after the last one.
    func failures(of device: DeviceID, now: ContinuousClock.Instant) -> Int {
        guard let entry = failed[device], now - entry.at < ClusterTimings.relapse else { return 0 }
        return entry.count
    }

    private mutating func noteFailures(_ device: DeviceID, _ count: Int) {
        let me = self.me
        guard var observation = devices[device]?.observations[me] else { return }
        observation.failures = count
        devices[device]?.observations[me] = observation
        dueSignals[device] = observation.rssi
        signalJumped = true
    }

    /// This bridge dropped its connection to a device another bridge owns now: the claim goes out again without
    /// `release`, and the owner connects.
    public mutating func released(_ device: DeviceID) -> [ClusterAction] {
        guard var entry = devices[device], var claim = entry.claim, claim.release == me, claim.owner != me else { return [] }
        claim.release = nil
        entry.claim = claim
        entry.releaseSince = nil
        devices[device] = entry
        return [.publish(topic: topics.claim(device), payload: claim.json, retain: true)]
    }

    /// Whether the owner still waits for the previous owner to let the device go: while that bridge is alive,
    /// for at most `claim_timeout` (a bridge that never answers does not hold the device forever).
    func awaitsRelease(_ entry: DeviceOwnership, now: ContinuousClock.Instant) -> Bool {
        guard let from = entry.claim?.release, from != me, let since = entry.releaseSince else { return false }
        return isAlive(from) && now - since < timings.claimTimeout
    }

    /// The claim to keep for one that arrived. Once released, a term stays released: a copy the owner wrote
    /// before the release reached it does not take the device back from it.
    func releasing(_ claim: Claim?, after entry: inout DeviceOwnership, now: ContinuousClock.Instant) -> Claim? {
        guard var claim, claim.release != nil else {
            entry.releaseSince = nil
            return claim
        }
        if let current = entry.claim, current.owner == claim.owner, current.term == claim.term {
            if current.release == nil {
                claim.release = nil
                return claim
            }
        } else {
            entry.releaseSince = now
        }
        if entry.releaseSince == nil { entry.releaseSince = now }
        return claim
    }
}

extension Observation {
    /// The shared form: the signal alone, or with what the score depends on (`connects`, `holds`, `failures`).
    var json: JSONValue {
        guard connects || holds || failures > 0 else { return .number(rssi) }
        var fields: [String: JSONValue] = ["rssi": .number(rssi), "connects": .bool(connects), "failures": .number(Double(failures))]
        if holds { fields["holds"] = true }
        return .object(fields)
    }

    /// Reads a shared value; nil for anything else, a number out of its range too.
    init?(_ json: JSONValue, at now: ContinuousClock.Instant) {
        guard let rssi = ClusterLimits.signal(json.doubleValue.map(JSONValue.number) ?? json["rssi"]),
            let failures = ClusterLimits.optional(json["failures"], in: ClusterLimits.failures)
        else { return nil }
        self.init(
            rssi: rssi, at: now, connects: json["connects"]?.boolValue ?? false, holds: json["holds"]?.boolValue ?? false,
            failures: min(failures ?? 0, 1000))
    }
}
