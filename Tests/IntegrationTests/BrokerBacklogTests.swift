import Bridge
import BridgeCore
import Testing
import TestSupport

@Suite("States while the broker is behind", .tags(.integration), .timeLimit(.minutes(1)), .needs(.broker))
struct BrokerBacklogTests {
    @Test("a paused broker: the bridge stops queueing states at the backlog limit, merges the rest, and publishes the newest once it runs again")
    func pausedBroker() async throws {
        let broker = try await Broker.start()
        let watcher = try await TestClient.connect(to: broker)
        try await watcher.subscribe("t2m/lifx_d073d5000001")
        let bridge = try await InProcessBridge.start(broker: broker)
        let driver = bridge.driver()
        driver.announce(Fixtures.colorLight(), state: ["state": "ON", "brightness": 0])
        try await watcher.waitForMessage(topic: "t2m/lifx_d073d5000001") { $0.json?["brightness"] == 0 }
        let mark = watcher.mark

        broker.pause()
        for step in 1...1000 { driver.emit(.state(Fixtures.colorLight().id, ["brightness": .number(Double(step))])) }
        try await Task.sleep(for: .milliseconds(500))
        broker.resume()

        try await watcher.waitForMessage(topic: "t2m/lifx_d073d5000001", after: mark, timeout: .seconds(20)) {
            $0.json?["brightness"] == 1000
        }
        try await Task.sleep(for: .milliseconds(300))
        let states = watcher.messages(on: "t2m/lifx_d073d5000001").filter { $0.index >= mark }
        // Up to the backlog limit (64 unacknowledged) went out before the bridge held the rest back as one.
        #expect(states.count <= 80, "\(states.count) state messages for 1,000 changes")
        #expect(states.last?.json?["brightness"] == 1000)
        let values = states.compactMap { $0.json?["brightness"]?.doubleValue }
        #expect(values == values.sorted(), "states arrive in the order they changed")
    }

    @Test("states held while the broker was behind go out as soon as it has caught up, not at the next retry")
    func caughtUp() async throws {
        let broker = try await Broker.start()
        let watcher = try await TestClient.connect(to: broker)
        try await watcher.subscribe("t2m/lifx_d073d5000001")
        // A retry that never comes within the test: only the transport's word can let the held state go.
        var options = BridgeOptions.fastForTests()
        options.heldStateRetry = .seconds(120)
        let bridge = try await InProcessBridge.start(broker: broker, options: options)
        let driver = bridge.driver()
        driver.announce(Fixtures.colorLight(), state: ["state": "ON", "brightness": 0])
        try await watcher.waitForMessage(topic: "t2m/lifx_d073d5000001") { $0.json?["brightness"] == 0 }
        let mark = watcher.mark

        broker.pause()
        // One at a time, so the inbox does not merge them: each is a publish the paused broker leaves
        // unacknowledged, until the backlog limit (64) holds the rest back.
        for step in 1...100 {
            driver.emit(.state(Fixtures.colorLight().id, ["brightness": .number(Double(step))]))
            try await Task.sleep(for: .milliseconds(2))
        }
        try await Task.sleep(for: .milliseconds(200))
        broker.resume()

        try await watcher.waitForMessage(topic: "t2m/lifx_d073d5000001", after: mark, timeout: .seconds(10)) {
            $0.json?["brightness"] == 100
        }
        let states = watcher.messages(on: "t2m/lifx_d073d5000001").filter { $0.index >= mark }
        #expect(states.count < 100, "\(states.count) state messages for 100 changes: the last ones were held as one")
    }
}
