import AsyncHTTPClient
import BridgeCore
import LIFXSimulator
import Foundation
import Testing
import TestSupport

@Suite("Frontend /metrics and /healthz", .timeLimit(.minutes(2)))
struct MetricsTests {
    /// The samples of a Prometheus text exposition, by name with labels; fails on a line that is not one.
    static func samples(_ text: String) throws -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                throw TestFailure("not a sample: \(line)")
            }
            let name = String(line[..<space])
            guard name.first.map({ $0.isLetter || $0 == "_" }) == true,
                name.prefix(while: { $0 != "{" }).allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" })
            else { throw TestFailure("bad metric name: \(line)") }
            samples[name] = value
        }
        for line in text.split(separator: "\n") where line.hasPrefix("# TYPE ") {
            #expect(["counter", "gauge", "histogram"].contains(line.split(separator: " ").last ?? ""), "\(line)")
        }
        return samples
    }

    static func get(_ url: String) async throws -> (status: UInt, body: String) {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 4 << 20)
            try await client.shutdown()
            return (response.status.code, String(buffer: body))
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    @Test("parses as Prometheus text; message counters move when messages flow; devices are counted by status")
    func countersMove() async throws {
        let frontend = try await FrontendHarness.start()
        let first = try Self.samples(try await Self.get(frontend.url + "/metrics").body)
        #expect(first[#"things2mqtt_devices{integration="lifx",status="online"}"#] == 1)
        #expect(first["things2mqtt_mqtt_connected"] == 1)
        let published = try #require(first["things2mqtt_mqtt_messages_published_total"])
        let received = try #require(first["things2mqtt_mqtt_messages_received_total"])
        for step in 0..<5 { frontend.bridge.send("t2m/lifx_d073d5000001/set", #"{"brightness":\#(step + 1)}"#) }
        frontend.bridge.driver().emit(.state(Fixtures.colorLight().id, ["brightness": 5]))
        _ = try await frontend.bridge.waitForPublish("t2m/lifx_d073d5000001") { $0.json?["brightness"] == 5 }
        let second = try Self.samples(try await Self.get(frontend.url + "/metrics").body)
        #expect(try #require(second["things2mqtt_mqtt_messages_received_total"]) >= received + 5)
        #expect(try #require(second["things2mqtt_mqtt_messages_published_total"]) > published)
        await frontend.stop()
    }
}

/// The daemon with the web page on, a broker and the LIFX cloud simulator: lighter than the whole demo.
struct DaemonRig {
    let broker: Broker
    let lifx: LIFXCloudSimulator
    let bridge: BridgeProcess
    let port: Int

    static func start(token: String? = nil) async throws -> DaemonRig {
        let broker = try await Broker.start()
        let lifx = LIFXCloudSimulator.demo(token: "t0ken")
        let lifxPort = try await lifx.start(host: "127.0.0.1", port: 0)
        let port = try LocalPorts.free()
        let yaml = TestConfig.yaml(
            port: broker.port, base: "things2mqtt",
            extra: "lifx:\n  enabled: true\n  token: t0ken\n  api_url: http://127.0.0.1:\(lifxPort)/v1\n"
                + "frontend:\n  enabled: true\n  port: \(port)\n" + (token.map { "  auth_token: \($0)\n" } ?? ""))
        let bridge = try BridgeProcess.start(config: yaml)
        try await bridge.waitUntilReady(on: broker, base: "things2mqtt", timeout: .seconds(30))
        _ = try await broker.waitForRetained("things2mqtt/lifx_d073d5000001/availability", timeout: .seconds(30))
        try await waitUntil("the web page listening", timeout: .seconds(20)) { LocalPorts.accepts(port: port) }
        return DaemonRig(broker: broker, lifx: lifx, bridge: bridge, port: port)
    }

    func stop() async throws {
        if bridge.isRunning { _ = try await bridge.terminate() }
        try await lifx.stop()
        try await broker.stop()
    }
}

@Suite("Frontend on the daemon: healthz follows the broker, the api websocket against a real broker", .serialized, .timeLimit(.minutes(3)), .needs(.broker))
struct DaemonFrontendTests {
    @Test("healthz answers 200 only while the daemon is connected to the broker")
    func healthFollowsBroker() async throws {
        let rig = try await DaemonRig.start()
        let url = "http://127.0.0.1:\(rig.port)/healthz"
        #expect(try await MetricsTests.get(url).status == 200)
        try await rig.broker.stop()
        try await waitUntil("healthz 503 without the broker", timeout: .seconds(20)) { try await MetricsTests.get(url).status == 503 }
        try await rig.broker.restart()
        try await waitUntil("healthz 200 again", timeout: .seconds(30)) { try await MetricsTests.get(url).status == 200 }
        let metrics = try MetricsTests.samples(try await MetricsTests.get("http://127.0.0.1:\(rig.port)/metrics").body)
        #expect(metrics.keys.contains { $0.hasPrefix("things2mqtt_integration_figure{") })
        #expect(metrics.keys.contains { $0.hasPrefix(#"things2mqtt_devices{integration="lifx""#) })
        try await rig.stop()
    }

    @Test("a page that stopped reading does not hold up the daemon's exit")
    func stalledPageAtShutdown() async throws {
        let rig = try await DaemonRig.start()
        let page = try RawWebSocketClient(port: rig.port)
        try await page.handshake(first: #"{"auth":""}"#)
        try await Task.sleep(for: .milliseconds(500))
        let started = ContinuousClock.now
        let status = try await rig.bridge.terminate(timeout: .seconds(10))
        #expect(status == 0)
        #expect(ContinuousClock.now - started < .seconds(5))
        page.hangUp()
        try await rig.stop()
    }

    @Test(
        "a connection that never completes a request (a browser's preconnect, a stalled client) does not hold up the daemon's exit",
        arguments: RawWebSocketClient.unfinishedRequests)
    func silentConnectionAtShutdown(sent: String) async throws {
        let rig = try await DaemonRig.start()
        let client = try RawWebSocketClient(port: rig.port)
        try client.write(sent)
        try await Task.sleep(for: .milliseconds(500))
        let started = ContinuousClock.now
        let status = try await rig.bridge.terminate(timeout: .seconds(20))
        #expect(status == 0)
        #expect(ContinuousClock.now - started < .seconds(8))
        // Cutting such a client off at shutdown is no error of the page.
        #expect(!rig.bridge.stderr.contains("ERROR"), "\(rig.bridge.stderr)")
        client.hangUp()
        try await rig.stop()
    }

    @Test("the retained snapshot, a /set frame acting as MQTT, and 4401 for a wrong token, against the daemon")
    func websocketOnDaemon() async throws {
        let rig = try await DaemonRig.start(token: "s3cret")
        let api = "ws://127.0.0.1:\(rig.port)/api"
        let retained = try await rig.broker.retainedMessages(under: "things2mqtt/#")
        let expected = Set(retained.keys.map { String($0.dropFirst("things2mqtt/".count)) })
        #expect(expected.contains("lifx_d073d5000001"))
        let set = #"{"topic":"lifx_d073d5000001/set","payload":{"state":"ON","brightness":42}}"#
        let (frames, _) = try await APISocketTests.session(api, first: #"{"auth":"s3cret"}"#, send: [set]) { frames in
            expected.isSubset(of: Set(APISocketTests.topics(frames)))
        }
        #expect(APISocketTests.topics(frames).first == "bridge/state")
        _ = try await rig.broker.waitForRetained("things2mqtt/lifx_d073d5000001", timeout: .seconds(10)) { $0.json?["brightness"] == 42 }
        let wrong = try await APISocketTests.session(api, first: #"{"auth":"nope"}"#) { _ in false }
        #expect(wrong.close == 4401 && wrong.frames.isEmpty)
        try await rig.stop()
    }
}
