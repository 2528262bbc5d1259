import BridgeCore
import Cluster

/// Bridges' cluster states joined as one broker joins them: every publish reaches every bridge (the publisher
/// too) in one order, retained ones are replayed to a bridge that connects; time is a number of milliseconds.
struct ClusterNetwork {
    static let topics = ClusterTopics(root: "t2m/_cluster")
    static let start = ContinuousClock.now
    var bridges: [String: ClusterState] = [:]
    var retained: [String: JSONValue] = [:]
    var log: [(bridge: String, action: ClusterAction)] = []
    /// Publishes on their way, delivered in the order they were sent, as one broker delivers them.
    var pending: [(topic: String, payload: JSONValue?, retain: Bool)] = []
    var ms = 0
    /// Devices every bridge's rules would connect.
    var connectable: Set<DeviceID> = []
    /// The devices whose connection each bridge holds.
    var held: [String: Set<DeviceID>] = [:]
    /// While false, a bridge asked to let a device go does not say it did: its releases wait here.
    var autoRelease = true
    var pendingReleases: [(bridge: String, device: DeviceID)] = []
    var now: ContinuousClock.Instant { Self.start + .milliseconds(ms) }

    /// Starts a bridge: connects, receives what is retained, sends its probe.
    mutating func add(_ id: String, epoch: Int64, timings: ClusterTimings = ClusterTimings()) {
        bridges[id] = ClusterState(me: id, epoch: epoch, topics: Self.topics, timings: timings, room: "room-\(id)", offset: 0)
        for (topic, payload) in retained.sorted(by: { $0.key < $1.key }) { deliver(to: id, topic, payload) }
        apply(id, bridges[id]!.connected())
    }

    /// A bridge stops without a word: its will says offline.
    mutating func kill(_ id: String) {
        bridges[id] = nil
        publish(Self.topics.presence(id), ClusterState.offline.json, retain: true)
    }

    mutating func hear(_ id: String, _ device: DeviceID, _ rssi: Int) {
        guard var state = bridges[id] else { return }
        let actions = state.heard(
            device, rssi: rssi, connects: connectable.contains(device), holds: held[id]?.contains(device) ?? false, now: now)
        bridges[id] = state
        apply(id, actions)
    }

    /// Lets `milliseconds` pass in steps of `step`, each bridge ticking at each step; `hearing` is what each
    /// bridge hears at every step.
    mutating func run(_ milliseconds: Int, step: Int = 250, hearing: [String: [DeviceID: Int]] = [:]) {
        let end = ms + milliseconds
        while ms < end {
            ms += step
            for (id, devices) in hearing.sorted(by: { $0.key < $1.key }) {
                for (device, rssi) in devices { hear(id, device, rssi) }
            }
            for id in bridges.keys.sorted() {
                guard var state = bridges[id] else { continue }
                let actions = state.tick(now: now)
                bridges[id] = state
                apply(id, actions)
            }
        }
    }

    /// Who owns the device, as each bridge sees itself.
    func owners(of device: DeviceID) -> [String] { bridges.filter { $0.value.owned.contains(device) }.map(\.key).sorted() }

    mutating func apply(_ id: String, _ actions: [ClusterAction]) {
        for action in actions {
            log.append((id, action))
            switch action {
            case .publish(let topic, let payload, let retain): publish(topic, payload, retain: retain)
            // The bridge drops its connection, then says so.
            case .release(let device):
                if autoRelease { release(id, device) } else { pendingReleases.append((id, device)) }
            default: break
            }
        }
    }

    /// The bridge dropped its connection to the device and says so.
    mutating func release(_ id: String, _ device: DeviceID) {
        guard var state = bridges[id] else { return }
        let released = state.released(device)
        bridges[id] = state
        apply(id, released)
    }

    /// The bridge's connection to the device came up or went down.
    mutating func link(_ id: String, _ device: DeviceID, up: Bool) {
        let now = self.now
        bridges[id]?.link(device, up: up, now: now)
        if up { held[id, default: []].insert(device) } else { held[id]?.remove(device) }
    }

    /// The bridge's radios have `free` connection slots.
    mutating func setSlots(_ id: String, _ free: Int?) {
        guard var state = bridges[id] else { return }
        let actions = state.setSlots(free)
        bridges[id] = state
        apply(id, actions)
    }

    /// The bridge failed to connect the device `times` times in a row.
    mutating func connectFailed(_ id: String, _ device: DeviceID, times: Int) {
        let now = self.now
        for _ in 0..<times { bridges[id]?.connectFailed(device, now: now) }
    }

    /// Whether each bridge may connect the device, as it last said.
    func mayConnect(_ device: DeviceID) -> [String] {
        bridges.filter { $0.value.mayConnect(device) && $0.value.manages(device) }.map(\.key).sorted()
    }

    /// While set, claims wait here instead of reaching the bridges, as behind a slow link.
    var holdClaims = false
    var heldClaims: [(topic: String, payload: JSONValue?, retain: Bool)] = []

    mutating func publish(_ topic: String, _ payload: JSONValue?, retain: Bool) {
        if holdClaims, topic.contains("/claims/") {
            heldClaims.append((topic, payload, retain))
            return
        }
        pending.append((topic, payload, retain))
        guard pending.count == 1 else { return }
        while let next = pending.first {
            if next.retain { retained[next.topic] = next.payload }
            for id in bridges.keys.sorted() { deliver(to: id, next.topic, next.payload) }
            pending.removeFirst()
        }
    }

    private mutating func deliver(to id: String, _ topic: String, _ payload: JSONValue?) {
        guard var state = bridges[id] else { return }
        let actions = state.received(topic: topic, payload: payload, now: now)
        bridges[id] = state
        apply(id, actions)
    }
}
