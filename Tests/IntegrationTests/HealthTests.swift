import Foundation
import Testing
import TestSupport

@Suite("things2mqtt health and the status file", .tags(.integration, .process), .timeLimit(.minutes(2)))
struct HealthTests {
    @Test("healthy once connected, unhealthy while the broker is away, healthy again when it returns, unhealthy once stopped", .needs(.broker))
    func followsTheBroker() async throws {
        let broker = try await Broker.start()
        let folder = try TemporaryDirectory(prefix: "health")
        defer { folder.remove() }
        let statusFile = folder.file("status")
        let bridge = try BridgeProcess.start(
            config: TestConfig.yaml(port: broker.port), arguments: ["--status-file", statusFile])
        try await broker.waitForRetained("t2m/bridge/state", equals: ["state": "online"])
        try await waitForHealth(statusFile, healthy: true)

        try await broker.stop()
        let away = try await waitForHealth(statusFile, healthy: false)
        #expect(away.contains("not connected to the MQTT broker"), "\(away)")

        try await broker.restart()
        try await waitForHealth(statusFile, healthy: true)
        try await broker.waitForRetained("t2m/bridge/state", equals: ["state": "online"])

        #expect(try await bridge.terminate() == 0)
        let stopped = try await health(statusFile)
        #expect(stopped.status == 1)
        #expect(stopped.stdout.contains("the bridge has stopped"), "\(stopped.stdout)")
    }

    @Test("THINGS2MQTT_STATUS_FILE names the file for both the daemon and the check", .needs(.broker))
    func environment() async throws {
        let broker = try await Broker.start()
        let folder = try TemporaryDirectory(prefix: "health")
        defer { folder.remove() }
        let environment = ["THINGS2MQTT_STATUS_FILE": folder.file("status")]
        let bridge = try BridgeProcess.start(config: TestConfig.yaml(port: broker.port), environment: environment)
        try await waitUntil("health to pass with the status file from the environment", timeout: .seconds(15)) {
            try await BridgeProcess.runCommand(["health"], environment: environment).status == 0
        }
        #expect(try await bridge.terminate() == 0)
    }

    @Test(
        "a status file that says connected but is not refreshed means a hung bridge; a missing or garbled one is unhealthy",
        arguments: [
            ("connected\n", 0.0, 0 as Int32, "healthy"),
            ("connected\n", 120.0, 1, "not updated for 120 s"),
            ("connecting\n", 0.0, 1, "not connected"),
            ("stopped\n", 0.0, 1, "has stopped"),
            ("whatever\n", 0.0, 1, "unreadable status"),
        ])
    func staleOrOdd(content: String, ageSeconds: Double, status: Int32, says: String) async throws {
        let folder = try TemporaryDirectory(prefix: "health")
        defer { folder.remove() }
        let path = try folder.write("status", content)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-ageSeconds)], ofItemAtPath: path)
        let result = try await health(path, maxAge: 60)
        #expect(result.status == status, "\(result.stdout)")
        #expect(result.stdout.contains(says), "\(result.stdout)")
    }

    @Test("no status file at all is unhealthy; no path at all is a usage error")
    func missing() async throws {
        let folder = try TemporaryDirectory(prefix: "health")
        defer { folder.remove() }
        let result = try await health(folder.file("absent"))
        #expect(result.status == 1)
        #expect(result.stdout.contains("no status file"), "\(result.stdout)")
        let usage = try await BridgeProcess.runCommand(["health"], environment: ["THINGS2MQTT_STATUS_FILE": ""])
        #expect(usage.status == 64, "\(usage.stderr)")
    }

    private func health(_ path: String, maxAge: Int = 30) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await BridgeProcess.runCommand(["health", "--status-file", path, "--max-age", "\(maxAge)"])
    }

    /// Runs the check until it gives the wanted answer; returns what it printed.
    @discardableResult
    private func waitForHealth(_ path: String, healthy: Bool) async throws -> String {
        try await waitForValue("health to say \(healthy ? "healthy" : "unhealthy")", timeout: .seconds(15), every: .milliseconds(200)) {
            let result = try await health(path)
            return (result.status == 0) == healthy ? result.stdout : nil
        }
    }
}
