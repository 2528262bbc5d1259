import Testing
import TestSupport

@Suite("systemd notify protocol", .tags(.integration), .timeLimit(.minutes(1)))
struct SystemdNotifyTests {
    @Test("READY=1 once connected, WATCHDOG=1 while running, STOPPING=1 on SIGTERM")
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
        try await socket.waitFor("WATCHDOG=1")
        #expect(socket.messages.first?.hasPrefix("READY=1") == true, "\(socket.messages)")
        #expect(try await bridge.terminate() == 0)
        try await socket.waitFor("STOPPING=1", timeout: .seconds(2))
    }

    @Test("without a broker the bridge never claims to be ready")
    func notReadyWithoutBroker() async throws {
        let folder = try TemporaryDirectory(prefix: "notify")
        defer { folder.remove() }
        let socket = try NotifySocket(in: folder)
        let port = try LocalPorts.free()
        let bridge = try BridgeProcess.start(
            config: TestConfig.yaml(port: port), environment: ["NOTIFY_SOCKET": socket.path])
        try await Task.sleep(for: .seconds(2))
        #expect(!socket.messages.contains { $0.contains("READY=1") })
        #expect(try await bridge.terminate() == 0)
    }
}
