import BridgeCore
import Foundation
import Testing
import TestSupport

@Suite("Bridge request/response API on the running daemon", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker))
struct RequestResponseTests {
    @Test("requests, errors and garbage: every answer is right and the daemon keeps running")
    func requestSequence() async throws {
        let broker = try await Broker.start()
        let bridge = try BridgeProcess.start(config: TestConfig.yaml(port: broker.port))
        try await bridge.waitUntilReady(on: broker)
        let client = try await TestClient.connect(to: broker)

        let byString = try await client.request("health_check", #"{"transaction":"abc-1"}"#)
        #expect(byString["status"] == "ok")
        #expect(byString["transaction"] == "abc-1")
        #expect(byString["data"]?["healthy"] == true)
        #expect(byString["data"]?["devices"] == 0)

        let byNumber = try await client.request("health_check", #"{"transaction":23}"#)
        #expect(byNumber["status"] == "ok")
        #expect(byNumber["transaction"] == 23)
        #expect(byNumber.jsonString.contains(#""transaction":23"#))

        let bare = try await client.request("health_check", "")
        #expect(bare["status"] == "ok")
        #expect(bare["transaction"] == nil)

        let unknown = try await client.request("frobnicate", #"{"transaction":7}"#)
        #expect(unknown["status"] == "error")
        #expect(unknown["error"]?.stringValue?.contains("unknown request") == true)
        #expect(unknown["transaction"] == 7)
        #expect(unknown["data"] == [:])

        let notJSON = try await client.request("health_check", "this is not json")
        #expect(notJSON["status"] == "error")
        #expect(notJSON["error"] == "payload must be a JSON object")

        let deep = try await client.request("health_check", String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000))
        #expect(deep["status"] == "error")
        #expect(deep["error"] == "payload is not valid JSON: nesting deeper than 32 levels at byte 33")

        let options = try await client.request("options", #"{"options":{"log_level":"debug"},"transaction":"o1"}"#)
        #expect(options["status"] == "ok", "\(options.jsonString)")
        #expect(options["data"]?["log_level"] == "debug")
        #expect(options["transaction"] == "o1")
        try await broker.waitForRetained("t2m/bridge/info") { $0.json?["log_level"] == "debug" }

        let badLevel = try await client.request("options", #"{"options":{"log_level":"loud"}}"#)
        #expect(badLevel["status"] == "error")
        #expect(badLevel["error"]?.stringValue?.contains("log_level must be one of") == true)
        let fixed = try await client.request("options", #"{"options":{"base_topic":"elsewhere"}}"#)
        #expect(fixed["status"] == "error")
        #expect(try await broker.retainedJSON("t2m/bridge/info")?["log_level"] == "debug")

        let events = try await client.watchEvents()
        client.publish("t2m/nobody/set", "garbage {{{")
        let failed = try await client.waitForEvent("command_failed", after: events)
        #expect(failed["alias"] == "nobody")
        #expect(failed["error"]?.stringValue?.contains("no device") == true)

        let rename = try await client.request("device/rename", #"{"from":"ghost","to":"x"}"#)
        #expect(rename["status"] == "error")
        let remove = try await client.request("device/remove", "{}")
        #expect(remove["status"] == "error")
        let driverRequest = try await client.request("lifx/scan", "{}")
        #expect(driverRequest["error"]?.stringValue?.contains("not enabled") == true)

        try await client.expectHealthy()
        #expect(bridge.isRunning)
        #expect(try await bridge.terminate() == 0)
        await client.close()
    }
}

@Suite("things2mqtt check-config", .tags(.process), .timeLimit(.minutes(1)))
struct CheckConfigCommandTests {
    @Test("a good file prints OK and exits 0: ours, config.example.yaml and the demo config")
    func goodFiles() async throws {
        let folder = try TemporaryDirectory(prefix: "check")
        defer { folder.remove() }
        let paths = [
            try folder.write("good.yaml", TestConfig.yaml(port: 1883, legacy: true)),
            BridgeProcess.packageRoot + "/config.example.yaml",
            BridgeProcess.packageRoot + "/deploy/demo/config.yaml",
        ]
        for path in paths {
            let result = try await BridgeProcess.runCommand(
                ["check-config", "--config", path],
                environment: [
                    "LIFX_TOKEN": "example-token", "MQTT_PORT": "1883", "LIFX_API_URL": "http://127.0.0.1:18080/v1",
                    "EV3_BEACON_PORT": "3015", "FRONTEND_PORT": "8080",
                ])
            #expect(result.status == 0, "\(path): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.hasPrefix("OK"), "\(path)")
        }
    }

    @Test("a bad file prints every error with line and column and exits 1")
    func badFile() async throws {
        let folder = try TemporaryDirectory(prefix: "check")
        defer { folder.remove() }
        let yaml = "mqtt:\n  server: ftp://x\n  qos: high\ndevices:\n  lifx_d073d5000001:\n    alias: a+b\nsurprise: 1\n"
        let path = try folder.write("bad.yaml", yaml)
        let result = try await BridgeProcess.runCommand(["check-config", "--config", path])
        #expect(result.status == 1)
        let output = result.stdout + result.stderr
        for expected in [
            "\(path):2:11: mqtt.server:", "\(path):3:8: mqtt.qos:", "\(path):6:12: devices.lifx_d073d5000001.alias:",
            "\(path):7:1: surprise:",
        ] {
            #expect(output.contains(expected), "missing \(expected) in:\n\(output)")
        }
        #expect(!output.contains("OK"))
    }

    @Test("a YAML alias bomb is refused at the alias that crosses the bound")
    func aliasBomb() async throws {
        let folder = try TemporaryDirectory(prefix: "check")
        defer { folder.remove() }
        var lines = [#"a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]"#]
        for (previous, name) in zip("abcdefgh", "bcdefghi") {
            lines.append("\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]")
        }
        let path = try folder.write("bomb.yaml", lines.joined(separator: "\n") + "\n")
        let result = try await BridgeProcess.runCommand(["check-config", "--config", path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(path):5:8: YAML aliases expand to more than 10000 nodes"), "\(result.stdout)")
    }

    @Test(
        "durations too large for the config are reported as errors, not a crash",
        arguments: ["keepalive: inf", "keepalive: .inf", "keepalive: 1e300", "keepalive: 1e300s", "keepalive: 9e15h"])
    func absurdDuration(line: String) async throws {
        let folder = try TemporaryDirectory(prefix: "check")
        defer { folder.remove() }
        let path = try folder.write("duration.yaml", "mqtt:\n  \(line)\n")
        let result = try await BridgeProcess.runCommand(["check-config", "--config", path])
        #expect(result.status == 1, "check-config ended with \(result.status): \(result.stderr.prefix(300))")
        #expect(result.stdout.contains("\(path):2:14: mqtt.keepalive:"), "\(result.stdout)")
    }

    @Test("a missing file is an error")
    func missingFile() async throws {
        let result = try await BridgeProcess.runCommand(["check-config", "--config", "/nonexistent/t2m.yaml"])
        #expect(result.status == 1)
        #expect((result.stdout + result.stderr).contains("cannot read"))
    }

    @Test("--version prints the version")
    func version() async throws {
        let result = try await BridgeProcess.runCommand(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }
}
