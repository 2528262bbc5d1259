import BridgeCore
import Testing
import TestSupport

@Suite("Publishing while the broker is away", .tags(.integration), .timeLimit(.minutes(1)), .needs(.broker))
struct OfflinePublishTests {
    @Test("state changes made while disconnected do not block, and the latest one is retained after the reconnect")
    func latestStateWins() async throws {
        let broker = try await Broker.start(persistence: false)
        let bridge = try await InProcessBridge.start(broker: broker)
        let id = DeviceID("lifx_d073d5000001")!
        bridge.driver().announce(Fixtures.colorLight(), state: ["state": "ON", "brightness": 10])
        try await broker.waitForRetained("t2m/lifx_d073d5000001") { $0.json?["brightness"] == 10 }

        try await broker.stop()
        for brightness in 11...60 {
            bridge.driver().emit(.state(id, ["brightness": .number(Double(brightness))]))
        }
        bridge.driver().emit(.status(id, .unavailable))
        try await broker.restart()

        try await broker.waitForRetained("t2m/lifx_d073d5000001", timeout: .seconds(30)) { $0.json?["brightness"] == 60 }
        try await broker.waitForRetained("t2m/lifx_d073d5000001/availability", equals: ["state": "offline"])
        try await broker.waitForRetained("t2m/bridge/state", equals: ["state": "online"])
        await bridge.stop()
    }
}
