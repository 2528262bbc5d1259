import BridgeCore
import Testing
import TestSupport

@Suite("An advert burst through the daemon", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker, .busMock))
struct BLEBurstTests {
    @Test("after a burst of adverts, whatever states were held, the last one published carries the final value")
    func statesInABurst() async throws {
        let rig = try await BLERig.start(novas: ["AA:BB:CC:DD:EE:01"], ble: BLERig.novaRule("never"))
        let path = BlueZStandIn.devicePath("AA:BB:CC:DD:EE:01")
        let topic = "t2m/ble_aabbccddee01"
        try await rig.standIn.advertise(path, rssi: -70)
        try await rig.broker.waitForRetained(topic) { $0.json?["rssi"] == -70 }
        let client = try await TestClient.connect(to: rig.broker)
        try await client.subscribe(topic)
        let mark = client.mark
        let start = ContinuousClock.now
        // RSSI cycling over -49...-40 in a row, as fast as the stand-in sends: the last one is exactly -40.
        try await rig.standIn.mock("AdvertiseBurst", [.string(path), .uint32(4000), .int32(-40)])
        let sent = ContinuousClock.now - start
        // The burst's end: its last value (every tenth one is -40 too) and no state after it for a while.
        var count = -1
        try await waitUntil("the burst's states to stop", timeout: .seconds(10), every: .milliseconds(300)) {
            let now = client.messages(on: topic).count
            defer { count = now }
            return now == count
        }
        let states = client.messages(on: topic).filter { $0.index >= mark }
        // How many states went out depends on how fast the machine let the stand-in send; the rule itself is
        // tested in ReadingPacerTests.
        #expect(
            states.last?.json?["rssi"] == -40, "the final value is the last of \(states.count) states in a burst of \(sent)")
        #expect(try await rig.bridge.terminate() == 0)
        await client.close()
    }
}
