import AsyncHTTPClient
import Foundation
import TestSupport
import Testing

/// `things2mqtt ha-addon` as the Supervisor starts it: its options file, `SUPERVISOR_TOKEN`, and a stand-in for
/// the Supervisor's `/services/mqtt` (Tests/ha-addon/supervisor.py) in front of a mosquitto that wants a password.
@Suite(.serialized) struct AddonProcessTests {
    static let token = "supervisor-token-4f1c"

    /// The stand-in Supervisor, answering for the broker at `mqttPort`.
    final class StandInSupervisor: Sendable {
        let child: ChildProcess
        let folder: TemporaryDirectory
        let port: Int

        init(mqttPort: Int, password: String, extra: [String] = []) async throws {
            folder = try TemporaryDirectory(prefix: "supervisor")
            child = try ChildProcess(
                executable: "/usr/bin/python3",
                arguments: [
                    BridgeProcess.packageRoot + "/Tests/ha-addon/supervisor.py", "--token", AddonProcessTests.token,
                    "--mqtt-port", "\(mqttPort)", "--username", "addons", "--password", password,
                ] + extra,
                stdoutPath: folder.file("stdout.log"), stderrPath: folder.file("stderr.log"))
            var found = 0
            let child = self.child
            try await waitUntil("the stand-in Supervisor to listen", timeout: .seconds(10)) {
                found = child.stdout.split(separator: "\n").first { $0.hasPrefix("listening ") }.flatMap { Int($0.dropFirst(10)) } ?? 0
                return found != 0
            }
            port = found
        }

        deinit {
            child.signal(SIGKILL)
            folder.remove()
        }

        var requests: [String] { child.stdout.split(separator: "\n").dropFirst().map(String.init) }
        var url: String { "http://127.0.0.1:\(port)" }
    }

    /// A broker with an anonymous listener for the test and a password listener for the bridge.
    func broker(password: String) async throws -> (Broker, TemporaryDirectory) {
        let folder = try TemporaryDirectory(prefix: "passwords")
        let file = folder.file("passwd")
        try await Broker.writePasswordFile(["addons": password], to: file)
        return (try await Broker.start(listeners: [.passwords("addons", file: file)]), folder)
    }

    func addon(options: String, supervisor: StandInSupervisor, environment: [String: String] = [:], port: Int) throws -> BridgeProcess {
        try BridgeProcess.launch(files: ["options.json": options], environment: ["SUPERVISOR_TOKEN": Self.token].merging(environment) { $1 }) {
            ["ha-addon", "--options", $0.file("options.json"), "--data", $0.path, "--supervisor", supervisor.url, "--ingress-port", "\(port)"]
        }
    }

    @Test(.needs(.broker, .busMock)) func withEveryOptionEmptyItConnectsWithTheSupervisorsCredentialsAndRunsBLE() async throws {
        let password = "pw-\(UUID().uuidString.prefix(8))"
        let (broker, passwords) = try await broker(password: password)
        defer { passwords.remove() }
        let bluez = try await BlueZStandIn.start()
        let supervisor = try await StandInSupervisor(mqttPort: try broker.port(of: "addons"), password: password)
        let port = try LocalPorts.free()
        let bridge = try addon(options: "{}", supervisor: supervisor, environment: bluez.environment, port: port)
        try await waitUntil("bridge/state online through the Supervisor's broker", timeout: .seconds(20)) {
            guard bridge.isRunning else { throw TestFailure("the add-on exited:\n\(bridge.stderr)") }
            return try await broker.retained("things2mqtt/bridge/state")?.text.contains("online") == true
        }
        #expect(supervisor.requests == ["GET /services/mqtt 200"])
        #expect(bridge.stderr.contains("MQTT broker mqtt://127.0.0.1:\(try broker.port(of: "addons")) from the Supervisor's MQTT service (core_mosquitto), as addons"))
        #expect(!bridge.stderr.contains(password), "the password never reaches the log")
        try await waitUntil("BLE running on the host's bus", timeout: .seconds(15)) {
            try await broker.retainedJSON("things2mqtt/bridge/info")?["integrations"]?["ble"]?["status"]?.stringValue == "running"
        }
        // The password is in a file only the add-on reads, and not in the written config.
        let secret = bridge.directory.file("secrets/mqtt_password")
        let mode = try FileManager.default.attributesOfItem(atPath: secret)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(!(try String(contentsOfFile: bridge.directory.file("things2mqtt.yaml"), encoding: .utf8)).contains(password))
        // The frontend listens for ingress, which comes from 172.30.32.2 only: this machine's own request is refused.
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/"), timeout: .seconds(5))
        #expect(response.status.code == 403)
        #expect(try await bridge.terminate() == 0)
    }

    @Test(.needs(.broker)) func brokerOptionsSetByTheUserWinAndTheLogSaysSo() async throws {
        let (broker, passwords) = try await broker(password: "unused")
        defer { passwords.remove() }
        let supervisor = try await StandInSupervisor(mqttPort: try broker.port(of: "addons"), password: "unused")
        let options = #"{"mqtt_server": "mqtt://127.0.0.1:\#(broker.port)", "base_topic": "mine", "ble": false}"#
        let bridge = try addon(options: options, supervisor: supervisor, port: try LocalPorts.free())
        try await waitUntil("bridge/state online through the user's broker", timeout: .seconds(20)) {
            guard bridge.isRunning else { throw TestFailure("the add-on exited:\n\(bridge.stderr)") }
            return try await broker.retained("mine/bridge/state")?.text.contains("online") == true
        }
        #expect(supervisor.requests.isEmpty, "the Supervisor is not asked when the options name a broker")
        #expect(bridge.stderr.contains("MQTT broker mqtt://127.0.0.1:\(broker.port) from the add-on's options, without a user name"))
        #expect(try await bridge.terminate() == 0)
    }

    @Test func withoutABrokerItStopsAndSaysWhatToDo() async throws {
        let supervisor = try await StandInSupervisor(mqttPort: 1, password: "", extra: ["--no-mqtt"])
        let bridge = try addon(options: #"{"mqtt_server": ""}"#, supervisor: supervisor, port: try LocalPorts.free())
        #expect(try await bridge.child.waitForExit(timeout: .seconds(20)) == 1)
        #expect(bridge.stderr.contains("No service mqtt available"))
        #expect(bridge.stderr.contains("install and start the Mosquitto broker add-on"))

        let wrong = try BridgeProcess.launch(files: ["options.json": "{}"], environment: ["SUPERVISOR_TOKEN": "not-the-token"]) {
            ["ha-addon", "--options", $0.file("options.json"), "--data", $0.path, "--supervisor", supervisor.url]
        }
        #expect(try await wrong.child.waitForExit(timeout: .seconds(20)) == 1)
        #expect(wrong.stderr.contains("HTTP status 401"))
        #expect(supervisor.requests == ["GET /services/mqtt 400", "GET /services/mqtt 401"])
    }
}
