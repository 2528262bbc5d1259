public import BridgeCore

/// One bridge's view of the cluster: peers, claims and observations, stepped by what arrives, what this bridge
/// hears and the time. The same rules run on every bridge over the same messages, so no coordinator is needed.
public struct ClusterState: Sendable {
    public let me: String
    public let epoch: Int64
    public let topics: ClusterTopics
    public let timings: ClusterTimings
    let room: String?
    let offset: Double
    /// True once this bridge's probe came back and its presence went out.
    public internal(set) var started = false
    /// When the probe last went out by a tick: it goes again until it comes back, since a broker whose queue for
    /// this bridge is full (a large retained replay at start-up) drops it.
    var probedAt: ContinuousClock.Instant?
    var peers: [String: Presence] = [:]
    var devices: [DeviceID: DeviceOwnership] = [:]
    var signals: [DeviceID: SharedSignal] = [:]
    /// Shared signals due, sent together once per observation interval (at the next tick after a jump).
    var dueSignals: [DeviceID: Double] = [:]
    var signalJumped = false
    var sharedAt: ContinuousClock.Instant?
    /// Free connection slots of this bridge's radios, nil without a limit.
    var slots: Int?
    /// The radios this bridge listens with, by name.
    var adapters: [String] = []
    /// This bridge's connects that failed in a row, by device, and when the last one failed.
    var failed: [DeviceID: (count: Int, at: ContinuousClock.Instant)] = [:]
    /// Devices this bridge may connect: it owns them and their previous owner let them go.
    var connectable: Set<DeviceID> = []
    /// Devices whose connection this bridge holds, healthy: the link is its observation of them (a connected
    /// peripheral stops advertising).
    var linked: Set<DeviceID> = []
    /// When this bridge's link to a device dropped, until it is up again.
    var linkDropped: [DeviceID: ContinuousClock.Instant] = [:]
    /// Owned devices whose link dropped (when) and whose reconnect failed: passed at once to the best other bridge.
    var lettingGo: [DeviceID: ContinuousClock.Instant] = [:]
    /// Owned devices whose claims the next renewal carries (heard by this bridge, or not yet placed away).
    var renewable: Set<DeviceID> = []
    var renewedAt: ContinuousClock.Instant?
    /// Peers whose `bridge/<id>/state` this bridge set offline.
    var markedOffline: Set<String> = []
    /// The devices this bridge owns now.
    public internal(set) var owned: Set<DeviceID> = []
    /// Messages dropped because a number in them was out of its range or they were malformed, since the start.
    public internal(set) var dropped = 0
    /// Bridges and devices left untracked because `maxPeers` or `maxDevices` were reached, since the start.
    public internal(set) var ignoredPeers = 0
    public internal(set) var ignoredDevices = 0
    /// Messages are authenticated (`cluster.secret`): presence is said again every renewal, and a peer whose
    /// presence stops coming is taken for gone (see `ClusterGuards.swift`).
    public let secured: Bool
    /// With `secured`: when each online peer's presence last arrived.
    var presenceSeen: [String: ContinuousClock.Instant] = [:]
    /// With `secured`: when this bridge last said its presence, and whether it stopped saying it (it leaves).
    var presentedAt: ContinuousClock.Instant?
    var left = false
    /// The nonce of the challenge this bridge sent to another run under its id, until a run answers it.
    var challenge: String?

    /// A bridge's state before anything arrived.
    public init(
        me: String, epoch: Int64, topics: ClusterTopics, timings: ClusterTimings, room: String?, offset: Double,
        secured: Bool = false
    ) {
        self.me = me
        self.secured = secured
        self.epoch = epoch
        self.topics = topics
        self.timings = timings
        self.room = room
        self.offset = offset
    }

    /// The presence this bridge publishes while it runs.
    public var presence: Presence { Presence(online: true, epoch: epoch, room: room, slots: slots, adapters: adapters) }
    /// Its will, and what it says when it stops.
    public static let offline = Presence(online: false, epoch: 0)

    /// Whether the cluster decides who publishes the device (some bridge heard it or claimed it).
    public func manages(_ device: DeviceID) -> Bool { devices[device] != nil }

    /// Whether no online bridge has a lower id than this one: it speaks for the cluster where one must.
    public var isLowestLive: Bool { !peers.contains { $0.value.online && $0.key < me } }

    /// The room the device was last placed in (by any owner), if any.
    public func room(of device: DeviceID) -> String? { devices[device]?.room.room }

    /// Whether this bridge publishes the device: it owns it, or the cluster does not manage it.
    public func publishes(_ device: DeviceID) -> Bool { owned.contains(device) || devices[device] == nil }

    /// What to send once connected: the probe, whose echo says the retained presences have all arrived.
    public func connected() -> [ClusterAction] { [.publish(topic: topics.probe(me), payload: [:], retain: false)] }

    /// This bridge heard the device: shares its signal when due. `connects`: this bridge would connect the device
    /// if it owned it (it then needs a free connection slot for it); `holds`: it holds the device's connection.
    public mutating func heard(
        _ device: DeviceID, rssi: Int, connects: Bool = false, holds: Bool = false, now: ContinuousClock.Instant
    ) -> [ClusterAction] {
        guard admits(device) else { return [] }
        let failed = failures(of: device, now: now)
        guard let value = signals[device, default: SharedSignal()].add(
            rssi: rssi, offset: offset, interval: timings.observation, now: now)
        else {
            // This bridge ranks itself by what it shared, as every other bridge ranks it: all see one order, so
            // two bridges do not both think themselves best while a move is on its way to the others.
            let me = self.me
            if var observation = devices[device]?.observations[me] {
                // Holding the connection or not changes what a full radio costs the score: the others hear it at once.
                if observation.holds != holds {
                    dueSignals[device] = observation.rssi
                    signalJumped = true
                }
                (observation.connects, observation.holds, observation.failures) = (connects, holds, failed)
                devices[device]?.observations[me] = observation
            }
            return []
        }
        devices[device, default: DeviceOwnership()].observe(
            me, Observation(rssi: value, at: now, connects: connects, holds: holds, failures: failed))
        dueSignals[device] = value
        if signals[device]?.jumped == true { signalJumped = true }
        return []
    }

    /// A message under the cluster topic arrived. One with a number out of its range, or malformed, is dropped
    /// and counted in `dropped`.
    public mutating func received(topic: String, payload: JSONValue?, now: ContinuousClock.Instant) -> [ClusterAction] {
        switch topics.subject(of: topic) {
        case .probe(let bridge) where bridge == me && !started:
            started = true
            presentedAt = now
            return [.publish(topic: topics.presence(me), payload: presence.json, retain: true)]
        case .presence(let bridge):
            guard let payload else { return [] }
            guard let presence = Presence(payload) else { return drop() }
            return presenceArrived(bridge, presence, now: now)
        case .challenge(let bridge) where bridge == me: return challenged(payload)
        case .answer(let bridge) where bridge == me: return answered(payload)
        case .claim(let device):
            let claim = payload.flatMap(Claim.init)
            if payload != nil, claim == nil { return drop() }
            guard admits(device) else { return [] }
            return claimArrived(device, claim, now: now)
        case .observations(let bridge) where bridge != me:
            guard let entries = payload?.objectValue else { return drop() }
            // Only a bridge whose presence is known: so observations stay bounded by `maxPeers`.
            guard peers[bridge] != nil else { return [] }
            var malformed = false
            for (key, value) in entries {
                guard let device = DeviceID(key), let observation = Observation(value, at: now) else {
                    malformed = true
                    continue
                }
                guard admits(device) else { continue }
                devices[device, default: DeviceOwnership()].observe(bridge, observation)
            }
            return malformed ? drop() : []
        case .renewal(let bridge) where bridge != me:
            guard let epoch = payload?["epoch"]?.integer(in: ClusterLimits.epoch) else { return drop() }
            var conflicts: [ClusterAction] = []
            for (key, term) in payload?["devices"]?.objectValue ?? [:] {
                guard let device = DeviceID(key), var entry = devices[device], let claim = entry.claim else { continue }
                // Another bridge renews a device this one owns (two brokers whose link healed keep different
                // retained claims, and a claim is not sent again by itself): this one says its claim again, so
                // both sides see both claims and the fixed order keeps one.
                if claim.owner == me, owned.contains(device), entry.passing == nil {
                    conflicts.append(.publish(topic: topics.claim(device), payload: claim.json, retain: true))
                    continue
                }
                guard claim.owner == bridge, claim.epoch == epoch, term.integer(in: ClusterLimits.term) == claim.term
                else { continue }
                entry.claimAt = now
                devices[device] = entry
            }
            return conflicts
        default: return []
        }
    }

    /// Counts a message dropped as malformed or out of range.
    mutating func drop() -> [ClusterAction] {
        dropped += 1
        return []
    }

    /// A peer's presence updates what this bridge knows of it (within `maxPeers`); one under this bridge's own id
    /// with another epoch is challenged.
    mutating func presenceArrived(_ bridge: String, _ presence: Presence, now: ContinuousClock.Instant) -> [ClusterAction] {
        guard bridge == me else {
            guard tracks(peer: bridge) else { return [] }
            let wasOnline = peers[bridge]?.online ?? false
            peers[bridge] = presence
            presenceSeen[bridge] = presence.online ? now : nil
            if presence.online, markedOffline.remove(bridge) != nil { return [.peerState(bridge, online: true)] }
            let lowest = ([me] + peers.filter { $0.value.online }.map(\.key)).min()
            guard wasOnline, !presence.online, lowest == me else { return [] }
            markedOffline.insert(bridge)
            return [.peerState(bridge, online: false)]
        }
        guard presence.online, presence.epoch != epoch else { return [] }
        // Another run under this id, or a copy of an old presence: only a run that answers a fresh challenge is
        // live (see `answered`).
        return challengeDuplicate()
    }

    private mutating func claimArrived(_ device: DeviceID, _ claim: Claim?, now: ContinuousClock.Instant) -> [ClusterAction] {
        var entry = devices[device, default: DeviceOwnership()]
        if let mine = entry.claim, mine.owner == me, isValid(entry, now: now), let claim, claim.owner != me,
            Claim.wins(mine, over: claim)
        {
            // Two live claims (a healed split, a race): the fixed order keeps this one; say it again.
            return [.publish(topic: topics.claim(device), payload: mine.json, retain: true)]
        }
        if let previous = entry.claim?.owner, previous != claim?.owner, previous == me || peers[previous] != nil {
            entry.lost[previous] = now
        }
        let asked = entry.claim.map { $0.release == me && $0.owner == claim?.owner && $0.term == claim?.term } ?? false
        // A claim seen before (a retained copy replayed after a reconnect) carries nothing new.
        let seen = entry.claim.map { $0.owner == claim?.owner && $0.term == claim?.term } ?? false
        let carried = seen ? nil : claim?.state
        var claim = releasing(claim, after: &entry, now: now)
        // The carried state is read once, here: a claim kept or written again never repeats it.
        claim?.state = nil
        entry.claim = claim
        entry.claimAt = claim == nil ? nil : now
        entry.passing = nil
        entry.room.adopt(claim?.room)
        devices[device] = entry
        var actions = settle(device, entry, now: now)
        if let carried, actions.contains(.gained(device)) { actions.append(.carried(device, carried)) }
        // The previous owner lets go of the device, then says so (`released`).
        guard let claim, claim.release == me, claim.owner != me, !asked else { return actions }
        return actions + [.release(device)]
    }

    /// Steps every device: claims unclaimed ones by rank, renews its own, hands over on a sustained lead.
    public mutating func tick(now: ContinuousClock.Instant) -> [ClusterAction] {
        guard started else {
            guard probedAt.map({ now - $0 >= ClusterTimings.probeRetry }) ?? true else { return [] }
            probedAt = now
            return connected()
        }
        var actions: [ClusterAction] = []
        renewable = []
        refreshLinks(now: now)
        for device in Array(devices.keys) {
            guard var entry = devices[device] else { continue }
            actions += step(device, &entry, now: now)
            devices[device] = entry
            actions += settle(device, entry, now: now)
        }
        return actions + share(now: now) + renew(now: now) + refresh(now: now)
    }
}

extension ClusterState {
    /// The bridges known, for `bridge/info`.
    public var peerInfo: [String: JSONValue] {
        var info = peers.mapValues { $0.json }
        info[me] = presence.json
        return info
    }
}
