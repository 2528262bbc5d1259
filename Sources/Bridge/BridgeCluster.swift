import BridgeConfig
import BridgeCore
import Cluster
import FoundationEssentials

/// Several bridges of one home: presence, observations and claims go through `ClusterState`; the bridge
/// publishes a device the cluster manages only while it owns it.
extension BridgeService {
    /// The cluster's state for a configuration (nil when it has no `cluster` section).
    static func makeCluster(_ config: Configuration) -> ClusterState? {
        guard let settings = config.cluster else { return nil }
        let timings = ClusterTimings(
            renewal: settings.renewalInterval.duration, claimTimeout: settings.claimTimeout.duration,
            observation: settings.observationInterval.duration, handoverWindow: settings.handoverWindow.duration,
            awayAfter: settings.awayAfter.duration)
        return ClusterState(
            me: settings.bridgeID, epoch: Int64(Date().timeIntervalSince1970 * 1000),
            topics: ClusterTopics(root: settings.clusterTopic(base: config.mqtt.baseTopic)), timings: timings,
            room: settings.room, offset: settings.rxOffsetDB, secured: settings.secret != nil)
    }

    /// Whether this bridge publishes the device and runs its commands.
    func publishes(_ id: DeviceID) -> Bool { cluster?.publishes(id) ?? true }

    /// Subscribes to the cluster's topics and the shared requests, and starts its clock.
    func startCluster() {
        guard let cluster else { return }
        if clusterAuth == nil {
            logger.warning(
                "cluster.secret is not set: anyone who can publish on the broker can stop this bridge or take its devices",
                metadata: ["bridge_id": "\(cluster.me)"])
        }
        transport.subscribe(cluster.topics.all, qos: 1)
        transport.subscribe(Topics(base: topics.base).requestFilter, qos: config.mqtt.qos)
        schedule(.clusterTick, after: cluster.timings.tick)
    }

    /// After every connect: the probe, whose echo tells that the retained presences are in.
    func clusterConnected() {
        guard let actions = cluster?.connected() else { return }
        applyCluster(actions)
    }

    func clusterHeard(_ id: DeviceID, rssi: Int, connects: Bool, holds: Bool) {
        guard let actions = cluster?.heard(id, rssi: rssi, connects: connects, holds: holds, now: .now) else { return }
        sayClusterBounds()
        applyCluster(actions)
    }

    /// A driver's free connection slots changed: the presence carries their sum over the limited integrations.
    func clusterSlots(_ integration: Integration, free: Int?) {
        guard cluster != nil else { return }
        connectionSlots[integration] = free
        let total = connectionSlots.isEmpty ? nil : connectionSlots.values.reduce(0, +)
        applyCluster(cluster?.setSlots(total) ?? [])
    }

    /// A driver's radios changed: the presence lists those of every integration.
    func clusterAdapters(_ integration: Integration, _ names: [String]) {
        guard cluster != nil else { return }
        adapters[integration] = names
        applyCluster(cluster?.setAdapters(adapters.keys.sorted { $0.rawValue < $1.rawValue }.flatMap { adapters[$0] ?? [] }) ?? [])
    }

    /// This bridge connected a device, or failed to: repeated failures lower its score for the device.
    func clusterConnect(_ id: DeviceID, failed: Bool) {
        if failed { cluster?.connectFailed(id, now: .now) } else { cluster?.connectSucceeded(id) }
    }

    /// The device's connection came up or went down: a bridge holding a healthy link counts as hearing it.
    func clusterLink(_ id: DeviceID, up: Bool) {
        cluster?.link(id, up: up, now: .now)
    }

    /// The driver dropped its connection to a device another bridge took over: the claim says so.
    func clusterReleased(_ id: DeviceID) {
        applyCluster(cluster?.released(id) ?? [])
    }

    /// Hands the devices this bridge owns to the next best bridges before it stops.
    /// Its connections are dropped first, so the next owner's connect finds the device free.
    func clusterLeaving() async {
        guard let cluster else { return }
        for id in cluster.owned.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard let control = drivers[id.integration] as? any ConnectionControl else { continue }
            await control.setOwnedElsewhere(id, true)
        }
        guard let actions = self.cluster?.leaving(now: .now) else { return }
        applyCluster(actions)
    }

    func clusterTick() {
        guard let cluster else { return }
        applyCluster(self.cluster?.tick(now: .now) ?? [])
        schedule(.clusterTick, after: cluster.timings.tick)
    }

    /// Tells the device's driver whether this bridge may connect it, when that changed; in the order of every
    /// change before it, so a hold and a release never overtake each other.
    func tellConnection(_ id: DeviceID, allowed: Bool) {
        guard let record = devices[id], record.held == allowed, let control = drivers[id.integration] as? any ConnectionControl
        else { return }
        devices[id]?.held = !allowed
        rememberedUpdates.start { await control.setOwnedElsewhere(id, !allowed) }
    }

    /// Drops any connection to the device (after every change told before), then says it was let go.
    private func release(_ id: DeviceID) {
        devices[id]?.held = true
        let inbox = self.inbox
        let control = drivers[id.integration] as? any ConnectionControl
        let queued = rememberedUpdates.start {
            await control?.setOwnedElsewhere(id, true)
            inbox.send(.timer(.clusterReleased(id)))
        }
        if !queued { logger.warning("A device taken over could not be let go", metadata: ["device.id": "\(id)"]) }
    }

    func applyCluster(_ actions: [ClusterAction]) {
        for action in actions {
            switch action {
            case .publish(let topic, let payload, let retain):
                if let payload { publishJSON(topic, signed(payload, topic: topic), retain: retain, qos: 1) } else { clearRetained(topic) }
            case .gained(let id):
                logger.info("Device owned by this bridge", metadata: ["device.id": "\(id)"])
                guard var record = devices[id] else { continue }
                // The room goes on from where the last owner placed it.
                if let room = cluster?.room(of: id) {
                    record.descriptor = withRoom(record.descriptor)
                    record.state["room"] = .string(room)
                    devices[id] = record
                }
                // Another bridge may have written the configs since: write them again, whatever this one sent before.
                for message in builder.deviceConfigs(record, qos: qos(for: record)) { discovery.published[message.topic] = nil }
                publishDiscovery(for: record)
                publishAvailability(record)
                publishState(record)
            case .lost(let id):
                logger.info("Device owned by another bridge now", metadata: ["device.id": "\(id)"])
            case .room(let id, let room):
                guard var record = devices[id] else { continue }
                let previous = record
                record.descriptor = withRoom(record.descriptor)
                record.state["room"] = .string(room)
                devices[id] = record
                if record.descriptor != previous.descriptor { publishDiscovery(for: record, previous: previous) }
                publishState(record)
            case .peerState(let bridgeID, let online):
                publishJSON(
                    Topics(base: topics.base, bridgeID: bridgeID).bridgeState, ["state": .string(online ? "online" : "offline")],
                    retain: true, qos: 1)
            case .mayConnect(let id, let allowed):
                tellConnection(id, allowed: allowed)
            case .release(let id):
                release(id)
            case .carried(let id, let state):
                goOn(id, from: state)
            case .duplicate(let bridgeID):
                logger.error(
                    "Another live bridge has this bridge_id; stopping", metadata: ["bridge_id": "\(bridgeID)"])
                stop = ClusterStop(description: "another live bridge uses cluster.bridge_id \"\(bridgeID)\"")
            }
        }
    }

    /// Whether this bridge answers a request sent to the shared `bridge/request/…`: one about a device this
    /// bridge owns, or about one the cluster does not share when this is the live bridge with the lowest id.
    /// Requests about no device go to a bridge's own `bridge/<bridge_id>/request/…`.
    func answersShared(_ payload: [UInt8]) -> Bool {
        guard let cluster, let named = JSONValue.parse(payload)?["device"]?.stringValue,
            let record = lookup(named) ?? DeviceID(named).flatMap({ devices[$0] })
        else { return false }
        if cluster.manages(record.id) { return cluster.owned.contains(record.id) }
        return cluster.isLowestLive
    }

    /// A device the cluster places gets a `room` sensor (its state key `room`: a bridge's room or `not_home`).
    func withRoom(_ descriptor: DeviceDescriptor) -> DeviceDescriptor {
        guard cluster?.manages(descriptor.id) == true, !descriptor.exposes.contains(where: { $0.property == "room" }) else {
            return descriptor
        }
        var described = descriptor
        described.exposes.append(.text("room", name: "Room"))
        return described
    }

    /// The cluster in `bridge/info`: this bridge and the others it knows.
    var clusterInfo: JSONValue {
        guard let cluster else { return .null }
        return [
            "bridge_id": .string(cluster.me), "topic": .string(cluster.topics.root),
            "bridges": .object(cluster.peerInfo), "owned_devices": .number(Double(cluster.owned.count)),
            "authenticated": .bool(clusterAuth != nil), "rejected_messages": .number(Double(clusterRejected)),
            "dropped_messages": .number(Double(cluster.dropped)),
        ]
    }
}
