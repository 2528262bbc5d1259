import BridgeCore

/// The rules each bridge applies to one device.
extension ClusterState {
    /// A claim holds while renewals arrive and its owner's run (epoch) is online.
    func isValid(_ entry: DeviceOwnership, now: ContinuousClock.Instant) -> Bool {
        guard let claim = entry.claim, let at = entry.claimAt, now - at <= timings.claimTimeout else { return false }
        return isAlive(claim.owner, epoch: claim.epoch)
    }

    func isAlive(_ bridge: String, epoch: Int64? = nil) -> Bool {
        if bridge == me { return epoch.map { $0 == self.epoch } ?? true }
        guard let peer = peers[bridge], peer.online else { return false }
        return epoch.map { $0 == peer.epoch } ?? true
    }

    /// Ownership follows the claim: `gained` or `lost` when that changed, and `mayConnect` when whether this
    /// bridge may connect the device changed.
    mutating func settle(_ device: DeviceID, _ entry: DeviceOwnership, now: ContinuousClock.Instant) -> [ClusterAction] {
        var actions: [ClusterAction] = []
        let mine = entry.claim?.owner == me && isValid(entry, now: now)
        if mine != owned.contains(device) {
            if mine { owned.insert(device) } else { owned.remove(device) }
            // What this bridge published is no longer the device's state once another bridge publishes it.
            if !mine { devices[device]?.settable = nil }
            actions.append(mine ? .gained(device) : .lost(device))
        }
        let free = mine && !awaitsRelease(entry, now: now)
        if free != connectable.contains(device) {
            if free { connectable.insert(device) } else { connectable.remove(device) }
            actions.append(.mayConnect(device, free))
        }
        return actions
    }

    mutating func step(_ device: DeviceID, _ entry: inout DeviceOwnership, now: ContinuousClock.Instant) -> [ClusterAction] {
        let valid = isValid(entry, now: now)
        let ranked = entry.ranked(now: now, life: timings.observationLife, alive: { isAlive($0) }) {
            score($0, $1)
        }
        guard valid else { return acquire(device, &entry, ranked, now: now) }
        entry.unclaimedSince = nil
        guard let claim = entry.claim, claim.owner == me, entry.passing == nil else { return [] }
        if lettingGo[device] != nil, let passed = letGo(device, &entry, ranked, claim) { return passed }
        // A device whose connection this bridge holds stays: a challenger's lead on adverts is no reason to move it.
        if linked.contains(device) {
            entry.lead = nil
        } else if let handover = handOver(device, &entry, ranked, claim, now: now) {
            return handover
        }
        let heard = entry.observations[me].flatMap { now - $0.at <= timings.observationLife ? $0.rssi : nil }
        let heardLately = entry.observations.values.contains { now - $0.at <= timings.awayAfter }
        let before = entry.room.room
        let hearing = ranked.map { (bridge: $0.bridge, room: $0.bridge == me ? room : peers[$0.bridge]?.room) }
        let liveRooms = Set(peers.values.filter(\.online).compactMap(\.room) + [room].compactMap { $0 })
        // Renewed (in the bridge's one renewal message) while this bridge hears the device, and while nobody
        // does until it is placed away; then the claim lapses, and a bridge that hears it again claims it.
        if heard != nil || (ranked.isEmpty && before != RoomPresence.away) { renewable.insert(device) }
        guard let placed = entry.room.update(hearing: hearing, heardLately: heardLately, liveRooms: liveRooms), placed != before
        else { return [] }
        // A new room is written into the retained claim, so a later owner starts from it.
        var placedClaim = claim
        placedClaim.room = placed
        if let heard { placedClaim.score = heard }
        entry.claim = placedClaim
        entry.claimAt = now
        return [.room(device, placed), .publish(topic: topics.claim(device), payload: placedClaim.json, retain: true)]
    }

    /// No valid claim: the bridges that hear the device claim it in rank order, the best after no delay.
    private func acquire(
        _ device: DeviceID, _ entry: inout DeviceOwnership, _ ranked: [(bridge: String, score: Double)],
        now: ContinuousClock.Instant
    ) -> [ClusterAction] {
        guard let rank = ranked.firstIndex(where: { $0.bridge == me }) else {
            entry.unclaimedSince = nil
            return []
        }
        let since = entry.unclaimedSince ?? now
        entry.unclaimedSince = since
        // Ranks count from when the device became unclaimed, or from when every bridge had an interval to share.
        guard let first = entry.firstHeard, now - max(since, first + timings.firstClaim) >= timings.rankDelay * rank,
            now - first >= timings.firstClaim
        else { return [] }
        // A previous owner still alive (its claim lapsed) may hold a connection: it lets the device go first.
        let previous = entry.claim?.owner
        let release = previous.flatMap { $0 != me && isAlive($0) ? $0 : nil }
        let claim = Claim(
            owner: me, term: (entry.claim?.term ?? 0) + 1, epoch: epoch, score: ranked[rank].score, room: entry.room.room,
            release: release)
        if let previous, previous != me { entry.lost[previous] = now }
        entry.releaseSince = release == nil ? nil : now
        entry.claim = claim
        entry.claimAt = now
        entry.unclaimedSince = nil
        entry.lead = nil
        return [.publish(topic: topics.claim(device), payload: claim.json, retain: true)]
    }

    /// Counts hand-over windows; after enough in a row with one challenger far enough ahead, passes it the claim.
    private func handOver(
        _ device: DeviceID, _ entry: inout DeviceOwnership, _ ranked: [(bridge: String, score: Double)], _ claim: Claim,
        now: ContinuousClock.Instant
    ) -> [ClusterAction]? {
        if let start = entry.windowStart, now - start < timings.handoverWindow { return nil }
        entry.windowStart = now
        let mine =
            entry.observations[me].flatMap { now - $0.at <= timings.observationLife ? score(me, $0) : nil }
            ?? -.infinity
        let challenger = ranked.first { candidate in
            guard candidate.bridge != me else { return false }
            let relapsed = entry.lost[candidate.bridge].map { now - $0 < ClusterTimings.relapse } ?? false
            return candidate.score >= mine + ClusterTimings.lead + (relapsed ? ClusterTimings.relapseLead : 0)
        }
        guard let challenger else {
            entry.lead = nil
            return nil
        }
        let windows = entry.lead?.bridge == challenger.bridge ? (entry.lead?.windows ?? 0) + 1 : 1
        entry.lead = (challenger.bridge, windows)
        guard windows >= ClusterTimings.leadWindows else { return nil }
        return pass(device, &entry, after: claim, to: challenger)
    }

    /// Passes an owned device to `next`: the next term, naming this bridge in `release`, with the state to carry;
    /// nil when `next`'s presence is not known.
    func pass(
        _ device: DeviceID, _ entry: inout DeviceOwnership, after claim: Claim, to next: (bridge: String, score: Double)
    ) -> [ClusterAction]? {
        guard let peer = peers[next.bridge] else { return nil }
        let passed = Claim(
            owner: next.bridge, term: claim.term + 1, epoch: peer.epoch, score: next.score, room: entry.room.room,
            release: me, state: entry.settable)
        // This bridge stays the owner until its own claim comes back from the broker: every bridge sees that
        // claim and any `/set` in one order, so a command sent meanwhile runs exactly once, on one side of it.
        // The new owner connects once this one dropped its connection and wrote the claim without `release`.
        entry.passing = passed.term
        entry.lead = nil
        return [.publish(topic: topics.claim(device), payload: passed.json, retain: true)]
    }
}

extension ClusterState {
    /// This bridge stops cleanly: each device it owns goes to the strongest other bridge that hears it, with
    /// the next term, so it changes hands without waiting for the claim to lapse.
    public mutating func leaving(now: ContinuousClock.Instant) -> [ClusterAction] {
        var actions: [ClusterAction] = []
        for device in owned.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard var entry = devices[device], let claim = entry.claim else { continue }
            let others = entry.ranked(now: now, life: timings.observationLife, alive: { $0 != me && isAlive($0) }) {
                score($0, $1)
            }
            guard let next = others.first, let peer = peers[next.bridge] else { continue }
            // Its connections were dropped before: nothing to wait for.
            var passed = Claim(
                owner: next.bridge, term: claim.term + 1, epoch: peer.epoch, score: next.score, room: entry.room.room,
                state: entry.settable)
            actions.append(.publish(topic: topics.claim(device), payload: passed.json, retain: true))
            passed.state = nil
            entry.claim = passed
            entry.settable = nil
            entry.claimAt = now
            entry.lost[me] = now
            devices[device] = entry
        }
        owned = []
        connectable = []
        return actions + leave()
    }
}
