import BridgeCore
import Cluster
import Testing

@Suite("Connections in a cluster: slots, connect failures, and one central at a time")
struct ClusterConnectionTests {
    static let device = DeviceID("ble_aabbccddee01")!
    static let timings = ClusterTimings(
        renewal: .seconds(2), claimTimeout: .seconds(6), observation: .seconds(1), handoverWindow: .seconds(1))

    struct Row: Sendable, CustomStringConvertible {
        var connects: Bool
        var slotsA: Int?
        var slotsB: Int?
        var failuresA = 0
        var owner: String
        var description: String { "connects \(connects), slots \(slotsA.map(String.init) ?? "-")/\(slotsB.map(String.init) ?? "-"), a failed \(failuresA)×: \(owner)" }
    }

    @Test(
        "a −60 dBm, b −70 dBm: the first claim goes to b when a lacks a free slot for a device it must connect, or failed it again and again",
        arguments: [
            Row(connects: true, slotsA: nil, slotsB: nil, owner: "a"),
            Row(connects: true, slotsA: 1, slotsB: 1, owner: "a"),
            Row(connects: true, slotsA: 0, slotsB: 2, owner: "b"),
            Row(connects: true, slotsA: 0, slotsB: nil, owner: "b"),
            Row(connects: true, slotsA: 0, slotsB: 0, owner: "a"),
            Row(connects: false, slotsA: 0, slotsB: 2, owner: "a"),
            Row(connects: true, slotsA: nil, slotsB: nil, failuresA: 2, owner: "a"),
            Row(connects: true, slotsA: nil, slotsB: nil, failuresA: 3, owner: "b"),
            Row(connects: false, slotsA: nil, slotsB: nil, failuresA: 3, owner: "b"),
            Row(connects: true, slotsA: 0, slotsB: 0, failuresA: 3, owner: "b"),
        ])
    func firstClaim(_ row: Row) {
        var network = ClusterNetwork()
        network.add("a", epoch: 1, timings: Self.timings)
        network.add("b", epoch: 2, timings: Self.timings)
        if row.connects { network.connectable = [Self.device] }
        network.setSlots("a", row.slotsA)
        network.setSlots("b", row.slotsB)
        network.connectFailed("a", Self.device, times: row.failuresA)
        network.run(5_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -70]])
        #expect(network.owners(of: Self.device) == [row.owner])
        #expect(network.mayConnect(Self.device) == [row.owner])
    }

    @Test("the presence carries the free slots, and says them again when they change")
    func presence() {
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        network.run(500)
        network.setSlots("a", 3)
        #expect(Presence(network.retained[ClusterNetwork.topics.presence("a")]!)?.slots == 3)
        network.setSlots("a", 0)
        #expect(Presence(network.retained[ClusterNetwork.topics.presence("a")]!)?.slots == 0)
        #expect(Presence(Presence(online: true, epoch: 1).json)?.slots == nil)
    }

    @Test("the presence lists the bridge's radios, says them again when they change, and reads a peer's list defensively")
    func adapters() {
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        network.run(500)
        var state = network.bridges["a"]!
        let actions = state.setAdapters(["hci0"])
        #expect(actions.count == 1)
        #expect(state.setAdapters(["hci0"]).isEmpty, "unchanged: nothing to say")
        guard case .publish(_, let payload?, true)? = actions.first else { Issue.record("no presence"); return }
        #expect(payload["adapters"] == ["hci0"])
        #expect(Presence(payload)?.adapters == ["hci0"])
        let odd: JSONValue = ["state": "online", "epoch": 1, "adapters": ["hci1", 5, .string(String(repeating: "x", count: 100))]]
        #expect(Presence(odd)?.adapters == ["hci1", String(repeating: "x", count: 64)])
        #expect(Presence(["state": "online", "epoch": 1, "adapters": "hci0"])?.adapters == [])
        #expect(ClusterState.offline.json["adapters"] == nil)
    }

    @Test("the owner's own full slots do not move a device it holds; its repeated connect failures do, once")
    func ownerScore() {
        var network = ClusterNetwork()
        network.connectable = [Self.device]
        network.add("a", epoch: 1, timings: Self.timings)
        network.add("b", epoch: 2, timings: Self.timings)
        network.run(3_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -70]])
        #expect(network.owners(of: Self.device) == ["a"])
        network.held["a"] = [Self.device]
        network.setSlots("a", 0)
        network.run(10_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -70]])
        #expect(network.owners(of: Self.device) == ["a"], "its slot holds the device")
        network.connectFailed("a", Self.device, times: 3)
        network.run(10_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -70]])
        #expect(network.owners(of: Self.device) == ["b"])
        let gains = network.log.filter { if case .gained = $0.action { true } else { false } }
        #expect(gains.map(\.bridge) == ["a", "b"])
        // A success forgets the failures, but b keeps the device: the lost bridge needs a larger lead back.
        network.bridges["a"]!.connectSucceeded(Self.device)
        network.run(10_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -70]])
        #expect(network.owners(of: Self.device) == ["b"])
    }

    @Test("an owner whose slots filled up before it connected the device passes it to a bridge that can connect it")
    func ownerWithoutSlot() {
        var network = ClusterNetwork()
        network.connectable = [Self.device]
        network.add("a", epoch: 1, timings: Self.timings)
        network.add("b", epoch: 2, timings: Self.timings)
        network.setSlots("a", 1)
        network.run(3_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -70]])
        #expect(network.owners(of: Self.device) == ["a"])
        // Another device takes a's one slot before a connects this one.
        network.setSlots("a", 0)
        network.run(2_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -70]])
        #expect(network.owners(of: Self.device) == ["a"], "one window is not a sustained lead")
        network.run(8_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -70]])
        #expect(network.owners(of: Self.device) == ["b"])
        #expect(network.mayConnect(Self.device) == ["b"])
        let gains = network.log.filter { if case .gained = $0.action { true } else { false } }
        #expect(gains.map(\.bridge) == ["a", "b"], "one hand-over, no flapping")
    }

    @Test("the shared form says whether the bridge holds the connection, and reads back")
    func holdsShared() throws {
        var network = ClusterNetwork()
        network.connectable = [Self.device]
        network.held["a"] = [Self.device]
        network.add("a", epoch: 1, timings: Self.timings)
        network.run(3_000, hearing: ["a": [Self.device: -60]])
        let shared = network.log.compactMap { entry -> JSONValue? in
            guard case .publish(let topic, let payload, _) = entry.action, topic == ClusterNetwork.topics.observations("a") else { return nil }
            return payload?[Self.device.rawValue]
        }
        #expect(shared.last?["holds"] == true)
        #expect(shared.last?["connects"] == true)
    }
}

extension ClusterConnectionTests {
    /// Hands the device from a to b (a strong, then b far stronger) with releases held back.
    static func handedOver() -> ClusterNetwork {
        var network = ClusterNetwork()
        network.connectable = [Self.device]
        network.add("a", epoch: 1, timings: Self.timings)
        network.add("b", epoch: 2, timings: Self.timings)
        network.run(3_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -80]])
        #expect(network.mayConnect(Self.device) == ["a"])
        network.autoRelease = false
        network.run(5_000, hearing: ["a": [Self.device: -85], "b": [Self.device: -55]])
        #expect(network.owners(of: Self.device) == ["b"])
        return network
    }

    @Test("the new owner connects only once the old one let the device go, whatever copies of the claim arrive after")
    func release() {
        var network = Self.handedOver()
        #expect(network.pendingReleases.map(\.bridge) == ["a"])
        #expect(network.mayConnect(Self.device).isEmpty, "b owns the device and runs its commands, but waits for a")
        network.run(3_000, hearing: ["a": [Self.device: -85], "b": [Self.device: -55]])
        #expect(network.mayConnect(Self.device).isEmpty)
        let topic = ClusterNetwork.topics.claim(Self.device)
        let passed = Claim(network.retained[topic]!)!
        #expect(passed.owner == "b" && passed.release == "a")
        network.release("a", Self.device)
        #expect(network.mayConnect(Self.device) == ["b"])
        #expect(Claim(network.retained[topic]!)?.release == nil)
        // b's copy written before the release reached it does not hold the device again.
        network.publish(topic, passed.json, retain: true)
        #expect(network.mayConnect(Self.device) == ["b"])
        let changes = network.log.compactMap { entry -> String? in
            guard case .mayConnect(_, let allowed) = entry.action else { return nil }
            return "\(entry.bridge) \(allowed)"
        }
        #expect(changes == ["a true", "a false", "b true"])
    }

    @Test("a previous owner that died, or never answers within claim_timeout, does not hold the device for ever")
    func releaseFallback() {
        var dead = Self.handedOver()
        dead.kill("a")
        dead.run(500, hearing: ["b": [Self.device: -55]])
        #expect(dead.mayConnect(Self.device) == ["b"])
        var silent = Self.handedOver()
        silent.run(4_000, hearing: ["a": [Self.device: -85], "b": [Self.device: -55]])
        #expect(silent.mayConnect(Self.device).isEmpty)
        silent.run(3_000, hearing: ["a": [Self.device: -85], "b": [Self.device: -55]])
        #expect(silent.mayConnect(Self.device) == ["b"])
    }

    @Test("a claim taken over after it lapsed names its live previous owner, which lets the device go first")
    func lapsedClaim() {
        var network = ClusterNetwork()
        network.connectable = [Self.device]
        network.add("a", epoch: 1, timings: Self.timings)
        network.add("b", epoch: 2, timings: Self.timings)
        network.run(3_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -80]])
        network.autoRelease = false
        // a stops hearing the device and stops renewing: its claim lapses, b claims.
        network.run(12_000, hearing: ["b": [Self.device: -80]])
        #expect(network.owners(of: Self.device) == ["b"])
        #expect(Claim(network.retained[ClusterNetwork.topics.claim(Self.device)]!)?.release == "a")
        #expect(network.mayConnect(Self.device).isEmpty)
        network.release("a", Self.device)
        #expect(network.mayConnect(Self.device) == ["b"])
    }
}
