public import BridgeCore

/// What the cluster asks of the bridge.
public enum ClusterAction: Sendable, Equatable {
    /// Publish (nil payload: clear a retained message).
    case publish(topic: String, payload: JSONValue?, retain: Bool)
    /// This bridge now owns the device: publish its discovery, availability and state.
    case gained(DeviceID)
    /// Another bridge owns the device now, or nobody: stop publishing it.
    case lost(DeviceID)
    /// Another live bridge has this bridge's id: stop, naming it.
    case duplicate(String)
    /// The owner placed the device in a room (or `not_home`): put `room` in its state.
    case room(DeviceID, String)
    /// A bridge went offline (its will or its stop): its own `bridge/<id>/state` should say so; only the live
    /// bridge with the lowest id is asked, so it is said once. When it is back, the same bridge says `online`,
    /// so its own re-sent messages never contradict the peer.
    case peerState(String, online: Bool)
    /// This bridge may connect the device now (`true`: it owns it and the previous owner let it go), or must
    /// hold it down (`false`, the start for every device the cluster manages).
    case mayConnect(DeviceID, Bool)
    /// Another bridge owns the device now and waits for this one to let it go: drop any connection to it, then
    /// call `released`.
    case release(DeviceID)
}

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
    var peers: [String: Presence] = [:]
    var devices: [DeviceID: DeviceOwnership] = [:]
    var signals: [DeviceID: SharedSignal] = [:]
    /// Shared signals due, sent together once per observation interval (at the next tick after a jump).
    var dueSignals: [DeviceID: Double] = [:]
    var signalJumped = false
    var sharedAt: ContinuousClock.Instant?
    /// Free connection slots of this bridge's radios, nil without a limit.
    var slots: Int?
    /// This bridge's connects that failed in a row, by device, and when the last one failed.
    var failed: [DeviceID: (count: Int, at: ContinuousClock.Instant)] = [:]
    /// Devices this bridge may connect: it owns them and their previous owner let them go.
    var connectable: Set<DeviceID> = []
    /// Owned devices whose claims the next renewal carries (heard by this bridge, or not yet placed away).
    var renewable: Set<DeviceID> = []
    var renewedAt: ContinuousClock.Instant?
    /// Peers whose `bridge/<id>/state` this bridge set offline.
    var markedOffline: Set<String> = []
    /// The devices this bridge owns now.
    public internal(set) var owned: Set<DeviceID> = []

    /// A bridge's state before anything arrived.
    public init(me: String, epoch: Int64, topics: ClusterTopics, timings: ClusterTimings, room: String?, offset: Double) {
        self.me = me
        self.epoch = epoch
        self.topics = topics
        self.timings = timings
        self.room = room
        self.offset = offset
    }

    /// The presence this bridge publishes while it runs.
    public var presence: Presence { Presence(online: true, epoch: epoch, room: room, slots: slots) }
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

    /// A message under the cluster topic arrived.
    public mutating func received(topic: String, payload: JSONValue?, now: ContinuousClock.Instant) -> [ClusterAction] {
        switch topics.subject(of: topic) {
        case .probe(let bridge) where bridge == me && !started:
            started = true
            return [.publish(topic: topics.presence(me), payload: presence.json, retain: true)]
        case .presence(let bridge): return presenceArrived(bridge, payload.flatMap(Presence.init))
        case .claim(let device): return claimArrived(device, payload.flatMap(Claim.init), now: now)
        case .observations(let bridge) where bridge != me:
            for (key, value) in payload?.objectValue ?? [:] {
                guard let device = DeviceID(key), let observation = Observation(value, at: now) else { continue }
                devices[device, default: DeviceOwnership()].observe(bridge, observation)
            }
            return []
        case .renewal(let bridge) where bridge != me:
            guard let epoch = payload?["epoch"]?.doubleValue.map({ Int64($0) }) else { return [] }
            for (key, term) in payload?["devices"]?.objectValue ?? [:] {
                guard let device = DeviceID(key), var entry = devices[device], let claim = entry.claim,
                    claim.owner == bridge, claim.epoch == epoch, term.doubleValue.map({ Int($0) }) == claim.term
                else { continue }
                entry.claimAt = now
                devices[device] = entry
            }
            return []
        default: return []
        }
    }

    private mutating func presenceArrived(_ bridge: String, _ presence: Presence?) -> [ClusterAction] {
        guard let presence else { return [] }
        guard bridge == me else {
            let wasOnline = peers[bridge]?.online ?? false
            peers[bridge] = presence
            if presence.online, markedOffline.remove(bridge) != nil { return [.peerState(bridge, online: true)] }
            let lowest = ([me] + peers.filter { $0.value.online }.map(\.key)).min()
            guard wasOnline, !presence.online, lowest == me else { return [] }
            markedOffline.insert(bridge)
            return [.peerState(bridge, online: false)]
        }
        guard presence.online, presence.epoch != epoch else { return [] }
        // Another run under this id: before start-up it is the live one; after, the older run stays.
        if !started || presence.epoch < epoch { return [.duplicate(me)] }
        return [.publish(topic: topics.presence(me), payload: self.presence.json, retain: true)]
    }

    private mutating func claimArrived(_ device: DeviceID, _ claim: Claim?, now: ContinuousClock.Instant) -> [ClusterAction] {
        var entry = devices[device, default: DeviceOwnership()]
        if let mine = entry.claim, mine.owner == me, isValid(entry, now: now), let claim, claim.owner != me,
            Claim.wins(mine, over: claim)
        {
            // Two live claims (a healed split, a race): the fixed order keeps this one; say it again.
            return [.publish(topic: topics.claim(device), payload: mine.json, retain: true)]
        }
        if let previous = entry.claim?.owner, previous != claim?.owner { entry.lost[previous] = now }
        let asked = entry.claim.map { $0.release == me && $0.owner == claim?.owner && $0.term == claim?.term } ?? false
        let claim = releasing(claim, after: &entry, now: now)
        entry.claim = claim
        entry.claimAt = claim == nil ? nil : now
        entry.passing = nil
        entry.room.adopt(claim?.room)
        devices[device] = entry
        let actions = settle(device, entry, now: now)
        // The previous owner lets go of the device, then says so (`released`).
        guard let claim, claim.release == me, claim.owner != me, !asked else { return actions }
        return actions + [.release(device)]
    }

    /// Steps every device: claims unclaimed ones by rank, renews its own, hands over on a sustained lead.
    public mutating func tick(now: ContinuousClock.Instant) -> [ClusterAction] {
        guard started else { return [] }
        var actions: [ClusterAction] = []
        renewable = []
        for device in Array(devices.keys) {
            guard var entry = devices[device] else { continue }
            actions += step(device, &entry, now: now)
            devices[device] = entry
            actions += settle(device, entry, now: now)
        }
        return actions + share(now: now) + renew(now: now)
    }

    /// The signals due, once per observation interval or at once after a jump, in messages of at most `batch`
    /// devices: so a bridge sends about one message per interval however many devices it hears.
    private mutating func share(now: ContinuousClock.Instant) -> [ClusterAction] {
        guard !dueSignals.isEmpty, signalJumped || (sharedAt.map { now - $0 >= timings.observation } ?? true) else { return [] }
        sharedAt = now
        signalJumped = false
        defer { dueSignals = [:] }
        let entries = dueSignals.sorted { $0.key.rawValue < $1.key.rawValue }
        return stride(from: 0, to: entries.count, by: Self.batch).map { start in
            let part = entries[start..<min(start + Self.batch, entries.count)]
            let payload = JSONValue.object(Dictionary(uniqueKeysWithValues: part.map { due in
                var shared = devices[due.key]?.observations[me] ?? Observation(rssi: due.value, at: now)
                shared.rssi = due.value
                return (due.key.rawValue, shared.json)
            }))
            return .publish(topic: topics.observations(me), payload: payload, retain: false)
        }
    }

    /// Every `renewal_interval`, one message renews the claims of every device this bridge still keeps.
    private mutating func renew(now: ContinuousClock.Instant) -> [ClusterAction] {
        guard renewedAt.map({ now - $0 >= timings.renewal }) ?? true else { return [] }
        renewedAt = now
        let kept = renewable.sorted { $0.rawValue < $1.rawValue }
        guard !kept.isEmpty else { return [] }
        for device in kept { devices[device]?.claimAt = now }
        return stride(from: 0, to: kept.count, by: Self.batch).map { start in
            let part = kept[start..<min(start + Self.batch, kept.count)]
            let terms = Dictionary(uniqueKeysWithValues: part.map { ($0.rawValue, JSONValue.number(Double(devices[$0]?.claim?.term ?? 0))) })
            return .publish(topic: topics.renewal(me), payload: ["epoch": .number(Double(epoch)), "devices": .object(terms)], retain: false)
        }
    }

    /// Devices per shared-signal or renewal message, so one stays under 16 KB.
    static let batch = 500
}

extension ClusterState {
    /// The bridges known, for `bridge/info`.
    public var peerInfo: [String: JSONValue] {
        var info = peers.mapValues { $0.json }
        info[me] = presence.json
        return info
    }
}
