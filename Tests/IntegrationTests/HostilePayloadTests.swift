import BridgeCore
import Testing
import TestSupport

/// A payload nobody should send, and a name for it in test output.
struct HostilePayload: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    /// What `health_check` answers to it: only an empty request is valid.
    var healthCheckStatus: JSONValue = "error"
    var testDescription: String { name }

    static let all: [HostilePayload] = [
        HostilePayload(name: "empty", bytes: [], healthCheckStatus: "ok"),
        HostilePayload(name: "binary bytes", bytes: [0x00, 0xff, 0xfe, 0x80, 0x01, 0x7b, 0x00]),
        HostilePayload(name: "1 MB of [", bytes: Array(repeating: UInt8(ascii: "["), count: 1 << 20)),
        HostilePayload(
            name: "deeply nested JSON",
            bytes: Array((String(repeating: #"{"a":"#, count: 50_000) + "1" + String(repeating: "}", count: 50_000)).utf8)),
        HostilePayload(
            name: "invalid UTF-8", bytes: Array(#"{"state":"ON","transaction":""#.utf8) + [0xc3, 0x28, 0xff] + Array(#""}"#.utf8)),
        HostilePayload(name: "JSON that is not an object", bytes: Array(#"[{"state":"ON"}, 1, null]"#.utf8)),
    ]
}

@Suite("Hostile payloads never take the bridge down", .tags(.integration), .timeLimit(.minutes(2)), .needs(.broker))
struct HostilePayloadTests {
    static let targets = [
        "t2m/bridge/request/health_check", "t2m/bridge/request/device/rename", "t2m/bridge/request/options",
        "t2m/kitchen/set", "t2m/kitchen/set/brightness", "t2m/kitchen/get", "t2m/nobody/set", "homeassistant/status",
    ]

    @Test("on request and set topics, each followed by a successful health_check", arguments: HostilePayload.all)
    func survives(_ payload: HostilePayload) async throws {
        let broker = try await Broker.start()
        let bridge = try await InProcessBridge.start(
            broker: broker, yaml: TestConfig.yaml(port: broker.port, extra: "devices:\n  lifx_d073d5000001:\n    alias: kitchen\n"))
        bridge.driver().announce(Fixtures.colorLight(), state: ["state": "ON"])
        try await broker.waitForRetained("t2m/kitchen")
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("t2m/bridge/response/#")
        for topic in Self.targets {
            let mark = client.mark
            client.publish(topic, bytes: payload.bytes)
            if let name = topic.split(separator: "/request/").dropFirst().first {
                let response = try await client.waitForMessage(topic: "t2m/bridge/response/\(name)", after: mark)
                let expected: JSONValue = name == "health_check" ? payload.healthCheckStatus : "error"
                #expect(response.json?["status"] == expected, "\(topic): \(response.text.prefix(200))")
            }
            try await client.expectHealthy()
        }
        // Only /get may turn into a (harmless) refresh; nothing hostile may become a state change.
        let changes = bridge.driver().commands.filter { if case .set = $0.command { true } else { false } }
        #expect(changes.isEmpty, "\(changes)")
        #expect(try await broker.retainedJSON("t2m/kitchen") == ["state": "ON", "status": "ready"])
        await bridge.stop()
        await client.close()
    }
}
