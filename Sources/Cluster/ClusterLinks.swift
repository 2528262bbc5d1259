public import BridgeCore

/// Connected devices: a connectable peripheral stops advertising once it has a central, so the bridge holding a
/// healthy link hears no adverts from it; the link itself is its observation. When the link drops and this
/// bridge cannot make it again, the device goes at once to the bridge that hears it best.
extension ClusterState {
    /// This bridge's connection to the device came up (`true`) or went down (`false`).
    public mutating func link(_ device: DeviceID, up: Bool, now: ContinuousClock.Instant) {
        if up {
            linked.insert(device)
            linkDropped[device] = nil
            lettingGo[device] = nil
        } else if linked.remove(device) != nil {
            linkDropped[device] = now
        }
    }

    /// Whether this bridge owns the device and its link to it dropped within `claim_timeout` without coming up
    /// again: a command that fails now goes with the claim to the next owner (see `published`).
    public func linkDropped(_ device: DeviceID, now: ContinuousClock.Instant) -> Bool {
        guard owned.contains(device), let at = linkDropped[device] else { return false }
        return now - at <= timings.claimTimeout
    }

    /// A connect after a drop failed: an owner lets the device go to the best other bridge at its next step,
    /// rather than waiting out its lead windows or `claim_timeout`. Only within `claim_timeout` of the drop.
    mutating func reconnectFailed(_ device: DeviceID, now: ContinuousClock.Instant) {
        guard let at = linkDropped[device] else { return }
        guard now - at <= timings.claimTimeout else {
            linkDropped[device] = nil
            return
        }
        if owned.contains(device) { lettingGo[device] = at }
    }

    /// While a link holds, this bridge's own observation of the device stays fresh at its last signal, marked as
    /// holding: renewed once per observation interval and shared as any other, so its claim is renewed and the
    /// room stays placed though no advert comes.
    mutating func refreshLinks(now: ContinuousClock.Instant) {
        let me = self.me
        for device in linked {
            guard var observation = devices[device]?.observations[me], now - observation.at >= timings.observation
            else { continue }
            observation.at = now
            observation.holds = true
            devices[device]?.observe(me, observation)
            dueSignals[device] = observation.rssi
        }
    }

    /// The owner's link dropped and its reconnect failed: the claim goes to the best other live bridge that heard
    /// the device's adverts since the drop (what was heard before it is no news of where the device is now),
    /// with the next term and this bridge named in `release` (it holds no connection, so it answers
    /// at once). Nil while nobody else hears it: this bridge keeps trying.
    mutating func letGo(
        _ device: DeviceID, _ entry: inout DeviceOwnership, _ ranked: [(bridge: String, score: Double)], _ claim: Claim
    ) -> [ClusterAction]? {
        guard let since = lettingGo[device] else { return nil }
        let next = ranked.first { candidate in
            candidate.bridge != me && (entry.observations[candidate.bridge].map { $0.at >= since } ?? false)
        }
        guard let next, let actions = pass(device, &entry, after: claim, to: next) else { return nil }
        lettingGo[device] = nil
        return actions
    }
}
