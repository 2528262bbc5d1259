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
    public var presence: Presence { Presence(online: true, epoch: epoch, room: room) }
    /// Its will, and what it says when it stops.
    public static let offline = Presence(online: false, epoch: 0)

    /// Whether the cluster decides who publishes the device (some bridge heard it or claimed it).
    public func manages(_ device: DeviceID) -> Bool { devices[device] != nil }

    /// The room the device was last placed in (by any owner), if any.
    public func room(of device: DeviceID) -> String? { devices[device]?.room.room }

    /// Whether this bridge publishes the device: it owns it, or the cluster does not manage it.
    public func publishes(_ device: DeviceID) -> Bool { owned.contains(device) || devices[device] == nil }

    /// What to send once connected: the probe, whose echo says the retained presences have all arrived.
    public func connected() -> [ClusterAction] { [.publish(topic: topics.probe(me), payload: [:], retain: false)] }

    /// This bridge heard the device: shares its signal when due.
    public mutating func heard(_ device: DeviceID, rssi: Int, now: ContinuousClock.Instant) -> [ClusterAction] {
        guard let value = signals[device, default: SharedSignal()].add(
            rssi: rssi, offset: offset, interval: timings.observation, now: now)
        else {
            if let average = signals[device]?.average { devices[device, default: DeviceOwnership()].observations[me] = (average, now) }
            return []
        }
        devices[device, default: DeviceOwnership()].observe(me, rssi: value, at: now)
        return [.publish(topic: topics.observation(device, by: me), payload: ["rssi": .number(value)], retain: false)]
    }

    /// A message under the cluster topic arrived.
    public mutating func received(topic: String, payload: JSONValue?, now: ContinuousClock.Instant) -> [ClusterAction] {
        switch topics.subject(of: topic) {
        case .probe(let bridge) where bridge == me && !started:
            started = true
            return [.publish(topic: topics.presence(me), payload: presence.json, retain: true)]
        case .presence(let bridge): return presenceArrived(bridge, payload.flatMap(Presence.init))
        case .claim(let device): return claimArrived(device, payload.flatMap(Claim.init), now: now)
        case .observation(let device, let bridge) where bridge != me:
            guard let rssi = payload?["rssi"]?.doubleValue, rssi.isFinite else { return [] }
            devices[device, default: DeviceOwnership()].observe(bridge, rssi: rssi, at: now)
            return []
        default: return []
        }
    }

    private mutating func presenceArrived(_ bridge: String, _ presence: Presence?) -> [ClusterAction] {
        guard let presence else { return [] }
        guard bridge == me else {
            peers[bridge] = presence
            return []
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
        entry.claim = claim
        entry.claimAt = claim == nil ? nil : now
        entry.room.adopt(claim?.room)
        if claim?.owner == me { entry.renewedAt = entry.renewedAt ?? now }
        devices[device] = entry
        return settle(device, entry, now: now)
    }

    /// Steps every device: claims unclaimed ones by rank, renews its own, hands over on a sustained lead.
    public mutating func tick(now: ContinuousClock.Instant) -> [ClusterAction] {
        guard started else { return [] }
        var actions: [ClusterAction] = []
        for device in Array(devices.keys) {
            guard var entry = devices[device] else { continue }
            actions += step(device, &entry, now: now)
            devices[device] = entry
            actions += settle(device, entry, now: now)
        }
        return actions
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
