import BridgeCore

/// What keeps a cluster standing when someone else publishes under its topic: bounded tracking, a duplicate id
/// that must prove it is live, and, with authenticated messages, liveness that fresh presences alone give.
extension ClusterState {
    /// Bridges tracked at most: far more than one home has; past it a new bridge id is ignored.
    public static let maxPeers = 32
    /// Devices tracked at most: far more than the radios of one home hear; past it a new device is ignored.
    public static let maxDevices = 4096

    /// Whether the device is tracked or may be: counted in `ignoredDevices` when the bound refuses it.
    mutating func admits(_ device: DeviceID) -> Bool {
        guard devices[device] == nil, devices.count >= Self.maxDevices else { return true }
        ignoredDevices += 1
        return false
    }

    /// Whether the bridge is tracked or may be: counted in `ignoredPeers` when the bound refuses it.
    mutating func tracks(peer bridge: String) -> Bool {
        guard peers[bridge] == nil, peers.count >= Self.maxPeers else { return true }
        ignoredPeers += 1
        return false
    }

    /// A presence under this bridge's id with another epoch: a live run answers the challenge, a copy of an old
    /// presence (or a forged one) does not, and nobody stops for it.
    mutating func challengeDuplicate() -> [ClusterAction] {
        let nonce = String(UInt64.random(in: .min ... .max), radix: 16)
        challenge = nonce
        return [.publish(topic: topics.challenge(me), payload: ["epoch": .number(Double(epoch)), "nonce": .string(nonce)], retain: false)]
    }

    /// Another run under this id challenges: this run answers with its epoch and the nonce.
    func challenged(_ payload: JSONValue?) -> [ClusterAction] {
        guard let theirs = payload?["epoch"]?.integer(in: ClusterLimits.epoch), theirs != epoch,
            let nonce = payload?["nonce"]?.stringValue, (1...32).contains(nonce.utf8.count)
        else { return [] }
        return [.publish(topic: topics.answer(me), payload: ["epoch": .number(Double(epoch)), "nonce": .string(nonce)], retain: false)]
    }

    /// A run under this id answered this bridge's challenge, so it is live: before start-up the other run stays;
    /// after, the older run stays and says its presence again.
    mutating func answered(_ payload: JSONValue?) -> [ClusterAction] {
        guard let challenge, let theirs = payload?["epoch"]?.integer(in: ClusterLimits.epoch), theirs != epoch,
            payload?["nonce"]?.stringValue == challenge
        else { return [] }
        self.challenge = nil
        if !started || theirs < epoch { return [.duplicate(me)] }
        return [.publish(topic: topics.presence(me), payload: presence.json, retain: true)]
    }

    /// With `secured`: the presence goes out again every renewal, so a retained copy is never older than the
    /// window a receiver accepts; and a peer whose presence stopped coming for `claim_timeout` is gone.
    mutating func refresh(now: ContinuousClock.Instant) -> [ClusterAction] {
        guard secured else { return [] }
        var actions: [ClusterAction] = []
        for (bridge, seen) in presenceSeen.sorted(by: { $0.key < $1.key }) where now - seen > timings.claimTimeout {
            actions += presenceArrived(bridge, Self.offline, now: now)
        }
        guard !left, presentedAt.map({ now - $0 >= timings.renewal }) ?? true else { return actions }
        presentedAt = now
        return actions + [.publish(topic: topics.presence(me), payload: presence.json, retain: true)]
    }

    /// With `secured`: an authentic `offline` presence older than the window arrived (a will is signed when its
    /// bridge connects, and fires when it dies). It counts only once the peer's presence is overdue, so a copy
    /// replayed while the peer still says its presence takes nothing down.
    public mutating func lateOffline(_ bridge: String, now: ContinuousClock.Instant) -> [ClusterAction] {
        guard bridge != me, let seen = presenceSeen[bridge], now - seen > timings.renewal + ClusterTimings.presenceGrace else {
            return []
        }
        return presenceArrived(bridge, Self.offline, now: now)
    }

    /// With `secured`, this bridge says itself offline as it leaves (authenticated now, unlike its will) and
    /// stops saying its presence.
    mutating func leave() -> [ClusterAction] {
        guard secured else { return [] }
        left = true
        return [.publish(topic: topics.presence(me), payload: Self.offline.json, retain: true)]
    }
}
