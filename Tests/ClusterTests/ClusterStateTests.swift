import Foundation
import BridgeCore
import Cluster
import Testing

@Suite("Several bridges agree on one owner per device")
struct ClusterStateTests {
    static let device = DeviceID("ble_a4c138000001")!

    @Test("the strongest bridge claims an unheard-of device, once, and the others never do")
    func strongestClaims() {
        var network = ClusterNetwork()
        for (index, id) in ["a", "b", "c"].enumerated() { network.add(id, epoch: Int64(100 + index)) }
        network.run(10_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -70], "c": [Self.device: -80]])
        #expect(network.owners(of: Self.device) == ["a"])
        let claims = network.log.filter { if case .publish(let topic, _, _) = $0.action { topic.contains("/claims/") } else { false } }
        #expect(Set(claims.map(\.bridge)) == ["a"])
        #expect(Claim(network.retained["t2m/_cluster/claims/\(Self.device.rawValue)"]!)?.term == 1)
        #expect(network.bridges["b"]!.publishes(Self.device) == false)
        #expect(network.bridges["a"]!.publishes(Self.device))
    }

    @Test("a probe the broker dropped goes again every second until it comes back; then the presence goes out")
    func probeRetried() {
        let topics = ClusterNetwork.topics
        var state = ClusterState(me: "a", epoch: 1, topics: topics, timings: ClusterTimings(), room: "hall", offset: 0)
        let start = ContinuousClock.now
        let probe = ClusterAction.publish(topic: topics.probe("a"), payload: [:], retain: false)
        #expect(state.connected() == [probe])
        // The first one is lost: nothing comes back.
        #expect(state.tick(now: start) == [probe])
        #expect(state.tick(now: start + .milliseconds(500)).isEmpty)
        #expect(state.tick(now: start + .seconds(1)) == [probe])
        let arrived = state.received(topic: topics.probe("a"), payload: [:], now: start + .milliseconds(1100))
        #expect(arrived.contains { if case .publish(let topic, _, true) = $0 { topic == topics.presence("a") } else { false } })
        #expect(state.started)
        #expect(!state.tick(now: start + .seconds(3)).contains(probe))
    }

    @Test("a device the cluster has not heard is published by every bridge, as alone")
    func unmanaged() {
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        let other = DeviceID("lifx_d073d5000001")!
        #expect(network.bridges["a"]!.publishes(other) && !network.bridges["a"]!.manages(other))
    }

    @Test("equal signals started together converge on one owner, the higher bridge id")
    func race() {
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        network.add("b", epoch: 2)
        network.run(5_000, hearing: ["a": [Self.device: -65], "b": [Self.device: -65]])
        #expect(network.owners(of: Self.device) == ["b"])
    }

    @Test("the owner's will: another bridge claims the device with the next term within the rank delay")
    func failover() {
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        network.add("b", epoch: 2)
        network.run(5_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -75]])
        #expect(network.owners(of: Self.device) == ["a"])
        network.kill("a")
        network.run(1_000, hearing: ["b": [Self.device: -75]])
        #expect(network.owners(of: Self.device) == ["b"])
        #expect(Claim(network.retained["t2m/_cluster/claims/\(Self.device.rawValue)"]!)?.term == 2)
    }

    @Test("a restarted bridge does not steal a valid claim")
    func restart() {
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        network.add("b", epoch: 2)
        network.run(5_000, hearing: ["a": [Self.device: -70], "b": [Self.device: -72]])
        #expect(network.owners(of: Self.device) == ["a"])
        network.kill("b")
        network.add("b", epoch: 3)
        network.run(20_000, hearing: ["a": [Self.device: -70], "b": [Self.device: -64]])
        #expect(network.owners(of: Self.device) == ["a"])
    }

    @Test("a sustained lead of 10 dB for three windows hands the device over once; a short one does not")
    func handOver() {
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        network.add("b", epoch: 2)
        network.run(5_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -80]])
        // Two windows of a lead: not enough.
        network.run(4_000, hearing: ["a": [Self.device: -85], "b": [Self.device: -55]])
        network.run(10_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -80]])
        #expect(network.owners(of: Self.device) == ["a"])
        network.run(20_000, hearing: ["a": [Self.device: -85], "b": [Self.device: -55]])
        #expect(network.owners(of: Self.device) == ["b"])
        let terms = network.log.compactMap { entry -> Int? in
            guard case .publish(let topic, let payload?, _) = entry.action, topic.contains("/claims/") else { return nil }
            return Claim(payload)?.term
        }
        #expect(Set(terms) == [1, 2])
    }

    @Test("two live claims (a healed split) settle by term, score and id: the loser stops at once")
    func conflict() {
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        network.add("b", epoch: 2)
        network.run(5_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -75]])
        let topic = ClusterNetwork.topics.claim(Self.device)
        network.publish(topic, Claim(owner: "b", term: 1, epoch: 2, score: -75).json, retain: true)
        #expect(network.owners(of: Self.device) == ["a"], "a's claim (term 1, -60) wins and is said again")
        #expect(Claim(network.retained[topic]!)?.owner == "a")
        network.publish(topic, Claim(owner: "b", term: 5, epoch: 2, score: -75).json, retain: true)
        #expect(network.owners(of: Self.device) == ["b"])
    }

    @Test("after a healed split each side kept its own retained claim: the first renewal from the other owner makes each say its claim again, and one owner remains")
    func healedRenewal() {
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        network.add("b", epoch: 2)
        network.run(5_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -75]])
        #expect(network.owners(of: Self.device) == ["a"])
        // b owns term 2 on its side of the split (its claim naming a), as if a's claim lapsed there; neither
        // claim is sent again after the heal, only renewals.
        var b = network.bridges["b"]!
        _ = b.received(
            topic: ClusterNetwork.topics.claim(Self.device), payload: Claim(owner: "b", term: 2, epoch: 2, score: -75, release: "a").json,
            now: network.now)
        network.bridges["b"] = b
        #expect(network.owners(of: Self.device) == ["a", "b"])
        network.run(12_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -75]])
        #expect(network.owners(of: Self.device) == ["b"])
        let retained = network.retained[ClusterNetwork.topics.claim(Self.device)].flatMap(Claim.init)
        #expect(retained?.owner == "b" && retained?.term == 2 && retained?.release == nil, "\(String(describing: retained))")
    }

    @Test("a second run under a live bridge id stops once the live run answered its challenge; the live one keeps its presence")
    func duplicate() throws {
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        network.run(1_000)
        let topics = ClusterNetwork.topics
        var second = ClusterState(me: "a", epoch: 9, topics: topics, timings: ClusterTimings(), room: nil, offset: 0)
        let challenge = second.received(topic: topics.presence("a"), payload: network.retained[topics.presence("a")], now: network.now)
        guard case .publish(let topic, let payload?, false)? = challenge.first, challenge.count == 1 else {
            Issue.record("no challenge: \(challenge)")
            return
        }
        #expect(topic == topics.challenge("a") && payload["epoch"] == 9)
        // The live run answers; the second run sees the answer and stops.
        var first = network.bridges["a"]!
        let answer = first.received(topic: topic, payload: payload, now: network.now)
        #expect(answer == [.publish(topic: topics.answer("a"), payload: ["epoch": 1, "nonce": try #require(payload["nonce"])], retain: false)])
        guard case .publish(_, let answered?, _)? = answer.first else { return }
        #expect(second.received(topic: topics.answer("a"), payload: answered, now: network.now) == [.duplicate("a")])
        // The live run, challenged in turn by the newer one's presence, keeps its own once the newer one answers.
        let challenged = first.received(topic: topics.presence("a"), payload: Presence(online: true, epoch: 9).json, now: network.now)
        guard case .publish(_, let back?, _)? = challenged.first else {
            Issue.record("no challenge back: \(challenged)")
            return
        }
        let reply = second.received(topic: topics.challenge("a"), payload: back, now: network.now)
        guard case .publish(_, let replied?, _)? = reply.first else { return }
        #expect(
            first.received(topic: topics.answer("a"), payload: replied, now: network.now)
                == [.publish(topic: topics.presence("a"), payload: Presence(online: true, epoch: 1, room: "room-a").json, retain: true)])
    }

    @Test("a device no bridge hears any more is placed away, then no longer renewed, and its claim lapses")
    func lapse() {
        let timings = ClusterTimings(renewal: .seconds(2), claimTimeout: .seconds(6), observation: .seconds(1), awayAfter: .seconds(5))
        var network = ClusterNetwork()
        network.add("a", epoch: 1, timings: timings)
        network.run(3_000, hearing: ["a": [Self.device: -60]])
        #expect(network.owners(of: Self.device) == ["a"])
        network.run(15_000)
        #expect(network.owners(of: Self.device).isEmpty)
        #expect(Self.rooms(network) == ["room-a", RoomPresence.away])
    }
}

extension ClusterStateTests {
    @Test("a bridge that stops cleanly passes each device it owns to the next best bridge, with the next term")
    func leaving() {
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        network.add("b", epoch: 2)
        network.add("c", epoch: 3)
        network.run(5_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -80], "c": [Self.device: -70]])
        #expect(network.owners(of: Self.device) == ["a"])
        var leaving = network.bridges["a"]!
        let actions = leaving.leaving(now: network.now)
        network.bridges["a"] = leaving
        network.apply("a", actions)
        #expect(network.owners(of: Self.device) == ["c"])
        #expect(Claim(network.retained[ClusterNetwork.topics.claim(Self.device)]!)?.term == 2)
    }
}

extension ClusterStateTests {
    /// The room changes the owner announced.
    static func rooms(_ network: ClusterNetwork) -> [String] {
        network.log.compactMap { if case .room(_, let room) = $0.action { room } else { nil } }
    }

    @Test("the owner places the device in the strongest bridge's room, keeps it through a change of owner, and says not_home after away_after")
    func rooms() {
        let timings = ClusterTimings(renewal: .seconds(2), claimTimeout: .seconds(6), observation: .seconds(1), handoverWindow: .seconds(1), awayAfter: .seconds(20))
        var network = ClusterNetwork()
        network.add("a", epoch: 1, timings: timings)
        network.add("b", epoch: 2, timings: timings)
        network.run(5_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -75]])
        #expect(Self.rooms(network) == ["room-a"])
        network.kill("a")
        network.run(3_000, hearing: ["b": [Self.device: -75]])
        #expect(network.owners(of: Self.device) == ["b"])
        #expect(Self.rooms(network) == ["room-a"], "the new owner starts from room-a, and a's room is not left because a died")
        network.run(40_000)
        #expect(Self.rooms(network).last == RoomPresence.away)
    }
}

@Suite("Room presence with hysteresis")
struct RoomPresenceTests {
    @Test("noise around two close rooms (−65 ± 6 vs −68 ± 6 dBm, 10 minutes of 2 s windows) changes the room at most twice")
    func noise() {
        var generator = SplitMix(seed: 7)
        var presence = RoomPresence()
        var signals = ["kitchen": SharedSignal(), "hall": SharedSignal()]
        var changes = 0, naiveChanges = 0
        var last: String?, naiveLast: String?
        let start = ContinuousClock.now
        for step in 0..<300 {
            let now = start + .seconds(2 * step)
            for (bridge, mean) in [("kitchen", -65.0), ("hall", -68.0)] {
                // Four adverts per window, each with its own noise, averaged as the bridge shares them.
                var shared: Double?
                for _ in 0..<4 { shared = signals[bridge]!.add(rssi: Int((mean + generator.gaussian() * 6).rounded()), offset: 0, interval: .zero, now: now) ?? shared }
                if let shared { presence.note(bridge, rssi: shared) }
            }
            // The rule without hysteresis (the strongest shared signal's room) on the same readings flaps.
            let naive = ["kitchen", "hall"].max { (signals[$0]!.average ?? -200) < (signals[$1]!.average ?? -200) }
            if naive != naiveLast, naiveLast != nil { naiveChanges += 1 }
            naiveLast = naive
            let room = presence.update(hearing: [("kitchen", "kitchen"), ("hall", "hall")], heardLately: true)
            if room != last, last != nil { changes += 1 }
            last = room
        }
        #expect(changes <= 2, "\(changes) changes")
        #expect(naiveChanges > 10, "the same noise without hysteresis: \(naiveChanges) changes")
    }

    @Test("a clear move switches at once; a small steady lead switches only when every recent reading is ahead")
    func switches() {
        var presence = RoomPresence(room: "hall")
        for _ in 0..<5 { presence.note("hall", rssi: -70); presence.note("kitchen", rssi: -68) }
        #expect(presence.update(hearing: [("hall", "hall"), ("kitchen", "kitchen")], heardLately: true) == "kitchen")
        var close = RoomPresence(room: "hall")
        for value in [-70.0, -69, -71, -70, -70] { close.note("hall", rssi: value) }
        for value in [-68.0, -67, -72, -68, -68] { close.note("kitchen", rssi: value) }
        #expect(close.update(hearing: [("hall", "hall"), ("kitchen", "kitchen")], heardLately: true) == "hall")
        #expect(close.update(hearing: [], heardLately: false) == RoomPresence.away)
    }
}

/// A small seeded generator, so the noise test sees the same noise every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
    /// Box–Muller.
    mutating func gaussian() -> Double {
        let u = max(next(), 1e-12), v = next()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}

extension ClusterStateTests {
    @Test("noise (−65 ± 6 vs −68 ± 6 dBm for 10 minutes, an advert every 500 ms) changes the owner at most once")
    func noisyOwnership() {
        var generator = SplitMix(seed: 11)
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        network.add("b", epoch: 2)
        for _ in 0..<1200 {
            let a = Int((-65 + generator.gaussian() * 6).rounded()), b = Int((-68 + generator.gaussian() * 6).rounded())
            network.run(500, step: 500, hearing: ["a": [Self.device: a], "b": [Self.device: b]])
        }
        let gains = network.log.filter { if case .gained = $0.action { true } else { false } }
        #expect(gains.count <= 2, "\(gains.map(\.bridge))")
        #expect(network.owners(of: Self.device).count == 1)
    }
}

extension ClusterStateTests {
    @Test("during a hand-over the old owner keeps the device until its claim comes back, so a command is never nobody's")
    func handOverOrder() {
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        network.add("b", epoch: 2)
        network.run(5_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -80]])
        // Claims now wait on their way, as on a slow link.
        network.holdClaims = true
        network.run(10_000, hearing: ["a": [Self.device: -85], "b": [Self.device: -55]])
        #expect(network.heldClaims.contains { Claim($0.payload ?? .null)?.owner == "b" }, "a has passed the claim")
        #expect(network.owners(of: Self.device) == ["a"], "until it comes back, a still runs the device's commands")
        network.holdClaims = false
        for message in network.heldClaims { network.publish(message.topic, message.payload, retain: message.retain) }
        #expect(network.owners(of: Self.device) == ["b"])
    }
}
