import BridgeCore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The bridge is held in its start-up by a TLS `ca_file` that is a named pipe: libmosquitto opens it while the
/// bridge builds its MQTT client, after the config is loaded and before anything has trapped a signal. The
/// test signals the bridge there, then puts the real CA file in the pipe's place and lets it go on.
@Suite("Signals during start-up", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker))
struct StartupSignalTests {
    @Test("SIGTERM while the bridge is starting ends in a clean stop with status 0, never online")
    func terminateDuringStartup() async throws {
        let held = try await HeldStart.begin()
        defer { held.remove() }
        try await Fifo.waitForBlockedOpen(pid: held.bridge.child.pid)
        held.bridge.child.signal(SIGTERM)
        try held.release()
        let status = try await held.bridge.child.waitForExit(timeout: .seconds(10))
        #expect(status == 0, "\(held.bridge.stderr.suffix(2_000))")
        #expect(held.bridge.stderr.contains("Stopped"))
        let state = try await held.broker.retainedJSON("t2m/bridge/state")
        #expect(state == nil || state == ["state": "offline"], "\(String(describing: state))")
    }

    @Test("SIGHUP while the bridge is starting is a reload, not the end")
    func reloadDuringStartup() async throws {
        let held = try await HeldStart.begin()
        defer { held.remove() }
        try await Fifo.waitForBlockedOpen(pid: held.bridge.child.pid)
        held.bridge.child.signal(SIGHUP)
        try held.release()
        try await held.bridge.waitUntilReady(on: held.broker)
        try await waitUntil("the reload in the log") { held.bridge.stderr.contains("Config reloaded") }
        #expect(held.bridge.isRunning)
        #expect(try await held.bridge.terminate() == 0)
    }

    @Test(
        "as PID 1 of its own PID namespace (as in a container), SIGTERM during start-up and once online both end cleanly",
        .enabled(
            if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"), "unshare --pid needs root"))
    func pidOne() async throws {
        let launcher = ["/usr/bin/unshare", "--pid", "--fork", "--kill-child"]
        let held = try await HeldStart.begin(launcher: launcher)
        defer { held.remove() }
        let early = try await namespaceInit(of: held.bridge)
        try await Fifo.waitForBlockedOpen(pid: early)
        kill(early, SIGTERM)
        try held.release()
        #expect(try await held.bridge.child.waitForExit(timeout: .seconds(10)) == 0, "\(held.bridge.stderr.suffix(2_000))")

        let clientID = "t2m-pid-one"
        let bridge = try BridgeProcess.start(config: held.config(clientID: clientID), launcher: launcher)
        try await bridge.waitUntilReady(on: held.broker)
        try await held.broker.waitForRetained("t2m/bridge/state", equals: ["state": "online"])
        kill(try await namespaceInit(of: bridge), SIGTERM)
        #expect(try await bridge.child.waitForExit(timeout: .seconds(10)) == 0, "\(bridge.stderr.suffix(2_000))")
        #expect(try await held.broker.retainedJSON("t2m/bridge/state") == ["state": "offline"])
        let broker = held.broker
        try await waitUntil("the DISCONNECT in the broker log") { broker.log.contains("Client \(clientID) disconnected.") }
        #expect(!broker.log.contains("Client \(clientID) closed its connection"))
    }

    /// The bridge's own process id (as the host sees it) under `unshare --fork`: the launcher's only child.
    private func namespaceInit(of bridge: BridgeProcess) async throws -> pid_t {
        let pid = bridge.child.pid
        return try await waitForValue("the child of unshare (pid \(pid))") {
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").first.flatMap { pid_t($0) }
        }
    }
}

/// A broker with a TLS listener and a bridge started against it whose `ca_file` is a named pipe.
struct HeldStart {
    let broker: Broker
    let files: TemporaryDirectory
    let tls: TLSFiles
    let fifo: Fifo
    let bridge: BridgeProcess

    static func begin(launcher: [String] = []) async throws -> HeldStart {
        let files = try TemporaryDirectory(prefix: "held-start")
        let tls = try await TLSFiles.generate(in: files, name: "broker")
        let broker = try await Broker.start(listeners: [
            .tls("tls", caFile: tls.caFile, certFile: tls.serverCertFile, keyFile: tls.serverKeyFile)
        ])
        let fifo = try Fifo(name: "ca.crt")
        let config = try config(broker: broker, caFile: fifo.path, clientID: "t2m-startup")
        let bridge = try BridgeProcess.start(config: config, launcher: launcher)
        return HeldStart(broker: broker, files: files, tls: tls, fifo: fifo, bridge: bridge)
    }

    /// A config for this broker's TLS listener with the real CA file.
    func config(clientID: String) throws -> String {
        try Self.config(broker: broker, caFile: tls.caFile, clientID: clientID)
    }

    /// Puts the real CA certificate where the pipe was and lets the bridge's blocked `open` go.
    func release() throws {
        try fifo.release(replacingWith: try String(contentsOfFile: tls.caFile, encoding: .utf8))
    }

    func remove() {
        fifo.remove()
        files.remove()
    }

    private static func config(broker: Broker, caFile: String, clientID: String) throws -> String {
        """
        mqtt:
          server: mqtts://127.0.0.1:\(try broker.port(of: "tls"))
          base_topic: t2m
          client_id: \(clientID)
          tls:
            ca_file: \(caFile)
        log_level: info

        """
    }
}
