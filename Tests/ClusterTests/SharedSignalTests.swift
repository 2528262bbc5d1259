import BridgeCore
import Cluster
import Testing

@Suite("What a bridge shares of a device's signal")
struct SharedSignalTests {
    static let start = ContinuousClock.now

    @Test("the first reading at once, then at most every interval, and at once after a move of 6 dB")
    func pacing() {
        var signal = SharedSignal()
        let interval = Duration.seconds(2)
        #expect(signal.add(rssi: -60, offset: 0, interval: interval, now: Self.start) == -60)
        #expect(signal.add(rssi: -62, offset: 0, interval: interval, now: Self.start + .milliseconds(500)) == nil)
        #expect(signal.add(rssi: -62, offset: 0, interval: interval, now: Self.start + .milliseconds(2100)) != nil)
        // -90 moves the average by 0.3 × 28 ≈ 8.4 dB: shared at once.
        let jumped = signal.add(rssi: -90, offset: 0, interval: interval, now: Self.start + .milliseconds(2200))
        #expect(jumped.map { $0 < -68 } == true)
    }

    @Test("the bridge's calibration offset is added")
    func offset() {
        var signal = SharedSignal()
        #expect(signal.add(rssi: -60, offset: 4.5, interval: .seconds(2), now: Self.start) == -55.5)
    }

    @Test(
        "topics under the cluster root",
        arguments: [
            ("t2m/_cluster/bridges/kitchen", ClusterTopics.Subject.presence(bridge: "kitchen")),
            ("t2m/_cluster/bridges/kitchen/probe", .probe(bridge: "kitchen")),
            ("t2m/_cluster/claims/ble_a4c138000001", .claim(DeviceID("ble_a4c138000001")!)),
            ("t2m/_cluster/obs/hall", .observations(bridge: "hall")),
            ("t2m/_cluster/renew/hall", .renewal(bridge: "hall")),
        ])
    func subjects(topic: String, subject: ClusterTopics.Subject) {
        #expect(ClusterTopics(root: "t2m/_cluster").subject(of: topic) == subject)
    }

    @Test("malformed topics are nobody's", arguments: ["t2m/_cluster", "t2m/_cluster/claims", "t2m/_cluster/obs/x/y", "t2m/other/bridges/a", "t2m/_cluster/claims/notanid"])
    func malformed(topic: String) {
        #expect(ClusterTopics(root: "t2m/_cluster").subject(of: topic) == nil)
    }
}
