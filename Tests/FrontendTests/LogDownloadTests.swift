import AsyncHTTPClient
import BridgeCore
import Foundation
import Testing
import TestSupport

/// `logs`: the ring's lines for the page, behind its token and, on loopback, a loopback `Host`.
@Suite("Frontend logs: the ring's lines behind the token", .timeLimit(.minutes(2)))
struct LogDownloadTests {
    static func get(_ url: String, headers: [(String, String)] = []) async throws -> (status: UInt, body: String) {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        var request = HTTPClientRequest(url: url)
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 8 << 20)
            try await client.shutdown()
            return (response.status.code, String(buffer: body))
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    @Test("no token or a wrong one gets 401, a foreign Host 403; the right token gets every line held, oldest first")
    func behindToken() async throws {
        let ring = LogRing(capacity: 3)
        for index in 1...4 { ring.append(LogRecord(time: 1_700_000_000.25, level: .notice, namespace: "bridge", message: "line \(index)")) }
        let frontend = try await FrontendHarness.start(token: "s3cret", logs: ring)
        let url = frontend.url + "/prefix/logs"
        #expect(try await Self.get(url).status == 401)
        #expect(try await Self.get(url, headers: [("Authorization", "Bearer nope")]).status == 401)
        #expect(try await Self.get(url, headers: [("Authorization", "Bearer s3cret"), ("Host", "evil.example:80")]).status == 403)
        let answer = try await Self.get(url, headers: [("Authorization", "Bearer s3cret")])
        #expect(answer.status == 200)
        guard case .array(let lines)? = JSONValue.parse(Array(answer.body.utf8)) else { throw TestFailure("not a list: \(answer.body)") }
        #expect(lines.map { $0["message"]?.stringValue } == ["line 2", "line 3", "line 4"])
        #expect(lines.first == ["time": 1_700_000_000_250, "level": "notice", "namespace": "bridge", "message": "line 2"])
        await frontend.stop()
    }

    @Test("on the daemon: its lines go out on bridge/logging and into the ring, follow the log level, and never hold a secret", .needs(.broker))
    func onTheDaemon() async throws {
        let rig = try await DaemonRig.start(token: "s3cret-page")
        let mqtt = try await TestClient.connect(to: rig.broker)
        try await mqtt.subscribe("things2mqtt/bridge/logging")
        mqtt.publish("things2mqtt/bridge/request/options", #"{"options":{"log_level":"debug"}}"#)
        try await waitUntil("the level change on bridge/logging", timeout: .seconds(10)) {
            mqtt.messages(on: "things2mqtt/bridge/logging").contains {
                $0.json?["message"]?.stringValue?.hasPrefix("Log level changed") == true && $0.json?["level"] == "notice"
                    && $0.json?["namespace"] == "bridge" && !$0.retained
            }
        }
        // At debug the bridge logs each command; the LIFX driver sends it with the token.
        mqtt.publish("things2mqtt/lifx_d073d5000001/set", #"{"state":"ON","brightness":33}"#)
        let url = "http://127.0.0.1:\(rig.port)/logs"
        #expect(try await Self.get(url).status == 401)
        let held = try await waitForValue("the command's debug line in the ring", timeout: .seconds(10)) {
            let answer = try await Self.get(url, headers: [("Authorization", "Bearer s3cret-page")])
            return answer.status == 200 && answer.body.contains(#""level":"debug""#) ? answer : nil
        }
        #expect(held.body.contains("Starting things2mqtt") && held.body.contains("Log level changed"))
        let published = mqtt.messages(on: "things2mqtt/bridge/logging").map(\.text)
        for text in published + [held.body] {
            #expect(!text.contains("t0ken") && !text.contains("s3cret"), "\(text)")
        }
        await mqtt.close()
        try await rig.stop()
    }
}
