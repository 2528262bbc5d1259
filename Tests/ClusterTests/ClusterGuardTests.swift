import BridgeCore
import Cluster
import Testing

/// Whoever can publish on the broker writes cluster messages too: numbers out of range, unbounded ids, forged
/// duplicates and presences that stop coming.
@Suite("The cluster against hostile messages")
struct ClusterGuardTests {
    static let topics = ClusterTopics(root: "t2m/_cluster")
    static let device = DeviceID("ble_a4c138000001")!
    static let start = ContinuousClock.now

    /// The index-th of many devices.
    static func id(_ index: Int) -> DeviceID {
        let hex = String(index, radix: 16)
        return DeviceID("ble_a4c138" + String(repeating: "0", count: 6 - hex.count) + hex)!
    }

    static func state(secured: Bool = false, timings: ClusterTimings = ClusterTimings()) -> ClusterState {
        var state = ClusterState(me: "m", epoch: 1000, topics: topics, timings: timings, room: "hall", offset: 0, secured: secured)
        _ = state.received(topic: topics.probe("m"), payload: [:], now: start)
        return state
    }

    @Test(
        "a number out of its range drops the message, counted, and never traps",
        arguments: [
            ("bridges/x", #"{"state":"online","epoch":1e19}"#), ("bridges/x", #"{"state":"online","epoch":-1}"#),
            ("bridges/x", #"{"state":"online","epoch":1.5}"#), ("bridges/x", #"{"state":"online","epoch":1,"slots":1e19}"#),
            ("bridges/x", #"{"state":"online","epoch":1,"slots":-3}"#), ("bridges/m", #"{"state":"online","epoch":-1e300}"#),
            ("claims/ble_a4c138000001", #"{"owner":"x","term":1e19,"epoch":1}"#),
            ("claims/ble_a4c138000001", #"{"owner":"x","term":1,"epoch":1e19}"#),
            ("claims/ble_a4c138000001", #"{"owner":"x","term":-1e19,"epoch":1}"#),
            ("claims/ble_a4c138000001", #"{"owner":"x","term":1,"epoch":1,"score":1e300}"#),
            ("renew/x", #"{"epoch":1e19,"devices":{}}"#), ("renew/x", #"{"devices":{}}"#),
            ("obs/x", #"{"ble_a4c138000001":{"rssi":-60,"failures":1e19}}"#), ("obs/x", #"{"ble_a4c138000001":1e19}"#),
            ("obs/x", #"{"ble_a4c138000001":{"rssi":-60,"failures":-1}}"#), ("obs/x", "[1]"),
        ])
    func outOfRange(topic: String, payload: String) throws {
        var state = Self.state()
        _ = state.received(topic: Self.topics.presence("x"), payload: ["state": "online", "epoch": 5], now: Self.start)
        let json = try JSONValue.parse(Array(payload.utf8), limits: .payload)
        let actions = state.received(topic: "t2m/_cluster/" + topic, payload: json, now: Self.start)
        #expect(actions.isEmpty)
        #expect(state.dropped == 1)
        let managed = state.manages(Self.device)
        #expect(!managed)
    }

    @Test("numbers in range still read: a term and an epoch up to 2^53, a renewal's terms")
    func inRange() {
        let claim = Claim(["owner": "x", "term": .number(9_007_199_254_740_992), "epoch": .number(9_007_199_254_740_992)])
        #expect(claim?.term == 1 << 53 && claim?.epoch == 1 << 53)
        #expect(Presence(["state": "offline"]) == Presence(online: false, epoch: 0))
        #expect(Presence(["state": "online", "epoch": 7, "slots": 3]) == Presence(online: true, epoch: 7, slots: 3))
    }

    @Test("at most 32 bridges and 4096 devices are tracked; past them new ones are ignored and counted")
    func bounds() {
        var state = Self.state()
        for index in 0..<40 {
            _ = state.received(topic: Self.topics.presence("peer\(index)"), payload: ["state": "online", "epoch": 5], now: Self.start)
        }
        #expect(state.peerInfo.count == ClusterState.maxPeers + 1)
        #expect(state.ignoredPeers == 8)
        // A known bridge still updates.
        _ = state.received(topic: Self.topics.presence("peer0"), payload: ["state": "offline"], now: Self.start)
        #expect(state.peerInfo["peer0"]?["state"] == "offline")
        #expect(state.peerInfo["peer39"] == nil)
        for index in 0..<5000 {
            let device = Self.id(index)
            _ = state.received(
                topic: Self.topics.claim(device), payload: Claim(owner: "peer1", term: 1, epoch: 5, score: -60).json, now: Self.start)
        }
        #expect(state.ignoredDevices == 5000 - ClusterState.maxDevices)
        let (last, past) = (state.manages(Self.id(4095)), state.manages(Self.id(4096)))
        #expect(last && !past)
        // Nor does this bridge's own hearing grow it further.
        _ = state.heard(DeviceID("ble_ffffff000001")!, rssi: -50, now: Self.start)
        let heard = state.manages(DeviceID("ble_ffffff000001")!)
        #expect(!heard)
        // Observations of a bridge no presence announced are not kept.
        _ = state.received(topic: Self.topics.observations("ghost"), payload: [Self.device.rawValue: -40], now: Self.start)
        #expect(state.dropped == 0)
    }

    @Test("a presence under this bridge's own id that no live run backs (forged, or an old copy) stops nothing")
    func forgedOwnPresence() {
        var state = Self.state()
        let challenge = state.received(topic: Self.topics.presence("m"), payload: ["state": "online", "epoch": 1], now: Self.start)
        #expect(!challenge.contains(.duplicate("m")))
        #expect(challenge.count == 1)
        // A made-up answer, or one to an older challenge, does not match the nonce.
        #expect(state.received(topic: Self.topics.answer("m"), payload: ["epoch": 1, "nonce": "0"], now: Self.start).isEmpty)
        #expect(state.received(topic: Self.topics.answer("m"), payload: ["epoch": 1], now: Self.start).isEmpty)
        // This bridge's own challenge and answer come back to it and are ignored.
        if case .publish(let topic, let payload?, _)? = challenge.first {
            #expect(state.received(topic: topic, payload: payload, now: Self.start).isEmpty)
            #expect(state.received(topic: Self.topics.answer("m"), payload: ["epoch": 1000, "nonce": payload["nonce"]!], now: Self.start).isEmpty)
        }
    }

    @Test("secured: the presence goes out every renewal; a peer whose presence stops coming is gone after claim_timeout")
    func securedLiveness() {
        let timings = ClusterTimings(renewal: .seconds(2), claimTimeout: .seconds(6))
        var state = Self.state(secured: true, timings: timings)
        _ = state.received(topic: Self.topics.presence("x"), payload: ["state": "online", "epoch": 5], now: Self.start)
        var presences = 0
        var offline: [ClusterAction] = []
        for step in 1...32 {
            let actions = state.tick(now: Self.start + .milliseconds(250 * step))
            presences += actions.filter { if case .publish(Self.topics.presence("m"), _, true) = $0 { true } else { false } }.count
            offline += actions.filter { if case .peerState("x", online: false) = $0 { true } else { false } }
        }
        #expect(presences == 4, "at 2, 4, 6 and 8 s")
        #expect(offline.count == 1, "x said nothing for 6 s")
        #expect(state.peerInfo["x"]?["state"] == "offline")
        // Unsecured, a silent peer stays as its last presence said (its will says when it goes).
        var plain = Self.state(timings: timings)
        _ = plain.received(topic: Self.topics.presence("x"), payload: ["state": "online", "epoch": 5], now: Self.start)
        for step in 1...32 { _ = plain.tick(now: Self.start + .milliseconds(250 * step)) }
        #expect(plain.peerInfo["x"]?["state"] == "online")
    }

    @Test("secured: a will older than the window counts only once the peer's presence is overdue")
    func lateOffline() {
        let timings = ClusterTimings(renewal: .seconds(2), claimTimeout: .seconds(6))
        var state = Self.state(secured: true, timings: timings)
        _ = state.received(topic: Self.topics.presence("x"), payload: ["state": "online", "epoch": 5], now: Self.start)
        #expect(state.lateOffline("x", now: Self.start + .seconds(2)).isEmpty)
        #expect(state.peerInfo["x"]?["state"] == "online")
        #expect(state.lateOffline("x", now: Self.start + .milliseconds(3100)) == [.peerState("x", online: false)])
        #expect(state.peerInfo["x"]?["state"] == "offline")
        #expect(state.lateOffline("m", now: Self.start + .seconds(60)).isEmpty)
    }

    @Test("secured: leaving says offline and stops saying the presence")
    func leaving() {
        var state = Self.state(secured: true)
        let actions = state.leaving(now: Self.start)
        #expect(actions == [.publish(topic: Self.topics.presence("m"), payload: ClusterState.offline.json, retain: true)])
        #expect(!state.tick(now: Self.start + .seconds(30)).contains { if case .publish(Self.topics.presence("m"), _, _) = $0 { true } else { false } })
    }
}
