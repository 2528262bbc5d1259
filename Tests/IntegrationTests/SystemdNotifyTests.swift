import Testing
import TestSupport

@Suite("systemd notify protocol", .tags(.integration), .timeLimit(.minutes(1)), .needs(.broker))
struct SystemdNotifyTests {
    @Test("READY=1 first, STATUS once connected, WATCHDOG=1 while running, STOPPING=1 on SIGTERM")
    func readyWatchdogStopping() async throws {
        let broker = try await Broker.start()
        let folder = try TemporaryDirectory(prefix: "notify")
        defer { folder.remove() }
        let socket = try NotifySocket(in: folder)
        let bridge = try BridgeProcess.start(
            config: TestConfig.yaml(port: broker.port),
            environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "400000"])
        try await socket.waitFor("READY=1")
        try await broker.waitForRetained("t2m/bridge/state", equals: ["state": "online"])
        try await socket.waitFor("STATUS=Connected to the MQTT broker at 127.0.0.1:\(broker.port)")
        try await socket.waitFor("WATCHDOG=1")
        #expect(socket.messages.first?.hasPrefix("READY=1") == true, "\(socket.messages)")
        #expect(try await bridge.terminate() == 0)
        try await socket.waitFor("STOPPING=1", timeout: .seconds(2))
    }

    @Test("a broker that is down does not hold readiness: READY=1 while connecting, STATUS follows the broker")
    func readyWithoutBroker() async throws {
        let broker = try await Broker.start()
        try await broker.stop()
        let folder = try TemporaryDirectory(prefix: "notify")
        defer { folder.remove() }
        let socket = try NotifySocket(in: folder)
        let bridge = try BridgeProcess.start(
            config: TestConfig.yaml(port: broker.port), environment: ["NOTIFY_SOCKET": socket.path])
        try await socket.waitFor("READY=1")
        let ready = try #require(socket.messages.first { $0.contains("READY=1") })
        #expect(ready.contains("STATUS=Connecting to the MQTT broker at 127.0.0.1:\(broker.port)"), "\(ready)")

        try await broker.restart()
        try await socket.waitFor("STATUS=Connected to the MQTT broker", timeout: .seconds(15))
        try await broker.waitForRetained("t2m/bridge/state", equals: ["state": "online"])
        try await broker.stop()
        try await waitUntil("STATUS=Connecting after the broker stopped, got \(socket.messages)") {
            socket.messages.last?.hasPrefix("STATUS=Connecting") == true
        }
        #expect(try await bridge.terminate() == 0)
    }
}
