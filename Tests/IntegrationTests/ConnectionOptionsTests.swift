import BridgeCore
import Foundation
import Testing
import TestSupport

/// One broker for every connection option: the plain anonymous listener at `broker.port` (where the
/// tests look), a TLS listener, a TLS listener that requires client certificates, and a plain listener
/// that only lets in `user` with `password`. Certificates come from a fresh CA; `otherCA` is a second,
/// unrelated one.
final class ConnectionFixture: Sendable {
    let broker: Broker
    let files: TemporaryDirectory
    let tls: TLSFiles
    let otherCA: TLSFiles
    let user = "bridge-user"
    let password = "pw-" + UUID().uuidString.prefix(12).lowercased()

    init() async throws {
        let files = try TemporaryDirectory(prefix: "connection-options")
        self.files = files
        tls = try await TLSFiles.generate(in: files, name: "broker")
        otherCA = try await TLSFiles.generate(in: files, name: "other")
        let passwordFile = files.file("mosquitto.passwd")
        try await Broker.writePasswordFile([user: password], to: passwordFile)
        broker = try await Broker.start(listeners: [
            .tls("tls", caFile: tls.caFile, certFile: tls.serverCertFile, keyFile: tls.serverKeyFile),
            .tls(
                "mutual", caFile: tls.caFile, certFile: tls.serverCertFile, keyFile: tls.serverKeyFile,
                requireCertificate: true),
            .passwords("password", file: passwordFile),
        ])
    }

    deinit { files.remove() }

    func url(_ listener: String) throws -> String {
        let port = try broker.port(of: listener)
        return listener == "password" ? "mqtt://127.0.0.1:\(port)" : "mqtts://127.0.0.1:\(port)"
    }
}

/// The `mqtt` section of a bridge config, plus any files it names (written beside the config).
struct MQTTSetup: Sendable {
    var server: String
    var lines: [String] = []
    var files: [String: String] = [:]

    /// A whole config file for base topic `base`.
    func config(base: String) -> String {
        """
        mqtt:
          server: \(server)
          base_topic: \(base)
          keepalive: 5s
        \(lines.map { "  " + $0 + "\n" }.joined())log_level: info

        """
    }
}

/// A way to configure the bridge's broker connection.
struct ConnectionCase: Sendable, CustomTestStringConvertible {
    let name: String
    let setup: @Sendable (ConnectionFixture) throws -> MQTTSetup
    /// Text a warning or error line of the bridge's log must contain (refusal cases only).
    var logShows: String = ""

    var testDescription: String { name }
}

@Suite("MQTT connection options against a real mosquitto", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker))
struct ConnectionOptionsTests {
    static let online: JSONValue = ["state": "online"]

    static let connecting: [ConnectionCase] = [
        ConnectionCase(name: "mqtts:// with tls.ca_file") { fixture in
            MQTTSetup(server: try fixture.url("tls"), lines: ["tls:", "  ca_file: \(fixture.tls.caFile)"])
        },
        ConnectionCase(name: "mqtts:// without ca_file but tls.insecure") { fixture in
            MQTTSetup(server: try fixture.url("tls"), lines: ["tls:", "  insecure: true"])
        },
        ConnectionCase(name: "mqtts:// with a client certificate where the listener requires one") { fixture in
            MQTTSetup(
                server: try fixture.url("mutual"),
                lines: [
                    "tls:", "  ca_file: \(fixture.tls.caFile)", "  cert_file: \(fixture.tls.clientCertFile)",
                    "  key_file: \(fixture.tls.clientKeyFile)",
                ])
        },
        ConnectionCase(name: "username and password") { fixture in
            MQTTSetup(
                server: try fixture.url("password"), lines: ["username: \(fixture.user)", "password: \(fixture.password)"])
        },
        ConnectionCase(name: "username and password_file (relative, with a trailing newline)") { fixture in
            MQTTSetup(
                server: try fixture.url("password"), lines: ["username: \(fixture.user)", "password_file: mqtt-password"],
                files: ["mqtt-password": fixture.password + "\n"])
        },
        ConnectionCase(name: "version: 5 on the plain listener") { fixture in
            MQTTSetup(server: fixture.broker.url, lines: ["version: 5"])
        },
    ]

    @Test("the bridge connects and publishes online", arguments: connecting)
    func connects(_ connection: ConnectionCase) async throws {
        let fixture = try await ConnectionFixture()
        let setup = try connection.setup(fixture)
        let bridge = try BridgeProcess.start(config: setup.config(base: "t2m"), files: setup.files)
        do {
            let state = try await fixture.broker.waitForRetained("t2m/bridge/state", timeout: .seconds(15)) {
                $0.json == Self.online
            }
            #expect(state.retained)
        } catch {
            Issue.record("\(error)\nbridge log:\n\(bridge.stderr)")
            return
        }
        #expect(bridge.stderr.contains("MQTT connected"), "\(bridge.stderr)")
        #expect(!bridge.stderr.contains(fixture.password))
        #expect(try await bridge.terminate() == 0, "\(bridge.stderr)")
        #expect(try await fixture.broker.retainedJSON("t2m/bridge/state") == ["state": "offline"])
    }

    @Test(
        "mqtt.version selects the protocol the broker sees",
        arguments: [("5", "p5"), ("5.0", "p5"), ("3.1.1", "p2"), ("4", "p2")])
    func protocolVersion(version: String, brokerTag: String) async throws {
        let broker = try await Broker.start()
        let base = "proto_" + version.replacingOccurrences(of: ".", with: "_")
        let setup = MQTTSetup(server: broker.url, lines: ["version: \(version)"])
        let bridge = try BridgeProcess.start(config: setup.config(base: base))
        try await broker.waitForRetained("\(base)/bridge/state", equals: Self.online, timeout: .seconds(15))
        // mosquitto logs `p5` for MQTT 5 and `p2` for 3.1.1 in its "New client connected" line.
        let line = try await waitForValue("the broker to log the bridge's connection") {
            broker.log.split(separator: "\n").first { $0.contains("as things2mqtt_\(base) (") }
        }
        #expect(line.contains("(\(brokerTag),"), "\(line)")
        #expect(try await bridge.terminate() == 0, "\(bridge.stderr)")
    }

    static let refused: [ConnectionCase] = [
        ConnectionCase(
            name: "mqtts:// with a CA that did not sign the server certificate",
            setup: { fixture in
                MQTTSetup(server: try fixture.url("tls"), lines: ["tls:", "  ca_file: \(fixture.otherCA.caFile)"])
            }, logShows: "TLS"),
        ConnectionCase(
            name: "mqtts:// without a client certificate where the listener requires one",
            setup: { fixture in
                MQTTSetup(server: try fixture.url("mutual"), lines: ["tls:", "  ca_file: \(fixture.tls.caFile)"])
            }, logShows: "MQTT connection failed; retrying"),
        ConnectionCase(
            name: "a wrong password",
            setup: { fixture in
                MQTTSetup(
                    server: try fixture.url("password"),
                    lines: ["username: \(fixture.user)", "password: wrong-\(fixture.password)"])
            }, logShows: "not authorised"),
        ConnectionCase(
            name: "a wrong password over MQTT 5",
            setup: { fixture in
                MQTTSetup(
                    server: try fixture.url("password"),
                    lines: ["version: 5", "username: \(fixture.user)", "password: wrong-\(fixture.password)"])
            }, logShows: "MQTT broker refused the connection"),
        ConnectionCase(
            name: "no username on a listener that requires one",
            setup: { fixture in MQTTSetup(server: try fixture.url("password")) }, logShows: "not authorised"),
        ConnectionCase(
            name: "a port nobody listens on",
            setup: { _ in MQTTSetup(server: "mqtt://127.0.0.1:\(try LocalPorts.free())") },
            logShows: "Connection refused"),
    ]

    @Test("the bridge stays offline, says why, backs off and keeps running", arguments: refused)
    func refusedConnection(_ connection: ConnectionCase) async throws {
        let fixture = try await ConnectionFixture()
        let setup = try connection.setup(fixture)
        let watcher = try await TestClient.connect(to: fixture.broker)
        try await watcher.subscribe("t2m/bridge/state")
        let bridge = try BridgeProcess.start(config: setup.config(base: "t2m"), files: setup.files)
        let pid = bridge.child.pid

        // Leave start-up out of the CPU measurement, then watch for three seconds.
        try await Task.sleep(for: .seconds(1))
        let ticksBefore = CPUTime.ticks(pid: pid)
        try await Task.sleep(for: .seconds(3))
        let ticksAfter = CPUTime.ticks(pid: pid)

        #expect(bridge.isRunning, "things2mqtt exited with status \(bridge.child.status ?? -1):\n\(bridge.stderr)")
        #expect(watcher.messages(on: "t2m/bridge/state").isEmpty, "\(watcher.messages)")
        #expect(try await fixture.broker.retained("t2m/bridge/state") == nil)
        if let ticksBefore, let ticksAfter {
            let seconds = Double(ticksAfter - ticksBefore) / CPUTime.ticksPerSecond
            #expect(seconds < 1, "things2mqtt used \(seconds) s of CPU in 3 s while retrying")
        }

        let log = bridge.stderr
        let problems = log.split(separator: "\n").filter { $0.contains(" WARNING ") || $0.contains(" ERROR ") }
        #expect(problems.contains { $0.contains(connection.logShows) }, "no warning mentions \"\(connection.logShows)\":\n\(log)")
        let delays = Self.retryDelays(in: log)
        #expect(delays.count >= 3, "\(log)")
        #expect(zip(delays, delays.dropFirst()).allSatisfy { $0 < $1 }, "retry_in does not grow: \(delays)")
        #expect(!log.contains(fixture.password), "the password appears in the log")
        #expect(!log.contains("MQTT connected"), "\(log)")

        #expect(try await bridge.terminate() == 0, "\(bridge.stderr)")
        await watcher.close()
    }

    @Test("MQTT 5: a refused connection is logged with the broker's reason")
    func mqtt5RefusalReason() async throws {
        let fixture = try await ConnectionFixture()
        let setup = MQTTSetup(
            server: try fixture.url("password"),
            lines: ["version: 5", "username: \(fixture.user)", "password: wrong-\(fixture.password)"])
        let bridge = try BridgeProcess.start(config: setup.config(base: "t2m"))
        let line = try await waitForValue("the bridge to log the refusal") {
            bridge.stderr.split(separator: "\n").first { $0.contains("MQTT broker refused the connection") }
        }
        // MQTT 5 CONNACK reason codes (135 here) are not the 3.1.1 return codes.
        #expect(line.lowercased().contains("not authori"), "\(line)")
        #expect(try await bridge.terminate() == 0, "\(bridge.stderr)")
    }

    /// The `retry_in` values of the "MQTT connection failed; retrying" lines, in seconds.
    static func retryDelays(in log: String) -> [Double] {
        log.split(separator: "\n").filter { $0.contains("MQTT connection failed; retrying") }.compactMap { line in
            guard let start = line.range(of: "retry_in=") else { return nil }
            return Double(line[start.upperBound...].prefix { $0.isNumber || $0 == "." })
        }
    }
}
