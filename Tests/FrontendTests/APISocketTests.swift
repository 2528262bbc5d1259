import Bridge
import BridgeCore
import Foundation
import Logging
import Synchronization
import Testing
import TestSupport

@Suite("Frontend api websocket: the MQTT API over frames, token first, bounded", .timeLimit(.minutes(2)))
struct APISocketTests {
    static let logger = Logger(label: "ws-test")

    /// Connects to the `api` at `url` (`ws://127.0.0.1:<port>/api`) as a page does, sends `first` (if any) and
    /// `send`, then collects frames until `until` holds or the socket closes. A raw client: it sends no `Origin`, as a
    /// program that is no browser's page (a client library's own `ws://` origin is one the page refuses).
    static func session(
        _ url: String, first: String? = nil, send: [String] = [], until: @escaping @Sendable ([JSONValue]) -> Bool
    ) async throws -> (frames: [JSONValue], close: UInt16?) {
        guard let port = url.split(separator: ":").last?.split(separator: "/").first.flatMap({ Int($0) }) else {
            throw TestFailure("no port in \(url)")
        }
        let client = try RawWebSocketClient(port: port, receiveBuffer: nil)
        defer { client.hangUp() }
        try await client.handshake(first: first)
        for text in send { try client.sendFrame(text) }
        let (texts, close) = try await client.texts(timeout: .seconds(40)) { texts in
            until(texts.compactMap { JSONValue.parse(Array($0.utf8)) })
        }
        return (texts.compactMap { JSONValue.parse(Array($0.utf8)) }, close)
    }

    static func topics(_ frames: [JSONValue]) -> [String] { frames.compactMap { $0["topic"]?.stringValue } }

    @Test("on connect: every retained message under the base, bridge state first, then the live stream")
    func snapshotAndLive() async throws {
        let frontend = try await FrontendHarness.start()
        let (frames, _) = try await Self.session(frontend.api, first: #"{"auth":""}"#) { frames in
            Self.topics(frames).contains("lifx_d073d5000001/availability")
        }
        let topics = Self.topics(frames)
        #expect(topics.first == "bridge/state")
        #expect(topics.contains("bridge/info") && topics.contains("bridge/devices") && topics.contains("lifx_d073d5000001"))
        #expect(frames.first?["payload"]?["state"] == "online")
        await frontend.stop()
    }

    @Test("a /set frame acts as the MQTT message; a request with a transaction gets its response frame")
    func framesAreMQTT() async throws {
        let frontend = try await FrontendHarness.start()
        let set = #"{"topic":"lifx_d073d5000001/set","payload":{"state":"ON"}}"#
        let request = #"{"topic":"bridge/request/health_check","payload":{"transaction":"t-1"}}"#
        let (frames, _) = try await Self.session(frontend.api, first: #"{"auth":""}"#, send: [set, request]) { frames in
            frames.contains { $0["topic"] == "bridge/response/health_check" }
        }
        let response = try #require(frames.first { $0["topic"] == "bridge/response/health_check" })
        #expect(response["payload"]?["transaction"] == "t-1")
        #expect(response["payload"]?["status"] == "ok")
        let command = try await frontend.bridge.driver().waitForCommand()
        #expect(command.device == Fixtures.colorLight().id)
        await frontend.stop()
    }

    @Test("a malformed frame gets an error frame, not a closed socket")
    func malformedFrame() async throws {
        let frontend = try await FrontendHarness.start()
        let (frames, _) = try await Self.session(frontend.api, first: #"{"auth":""}"#, send: ["nonsense", #"{"topic":"a/#","payload":1}"#]) { frames in
            frames.filter { $0["error"] != nil }.count == 2
        }
        #expect(frames.contains { $0["error"]?.stringValue?.contains("must not contain") == true })
        await frontend.stop()
    }

    @Test("with a token: nothing before it; the right one opens the stream; a wrong one or none in time closes with 4401")
    func authentication() async throws {
        let frontend = try await FrontendHarness.start(token: "s3cret", authTimeout: .milliseconds(500))
        let good = try await Self.session(frontend.api, first: #"{"auth":"s3cret"}"#) { !$0.isEmpty }
        #expect(Self.topics(good.frames).first == "bridge/state")
        let wrong = try await Self.session(frontend.api, first: #"{"auth":"guess"}"#) { _ in false }
        #expect(wrong.close == 4401)
        #expect(wrong.frames.isEmpty)
        let notAuth = try await Self.session(frontend.api, first: #"{"topic":"bridge/request/health_check","payload":{}}"#) { _ in false }
        #expect(notAuth.close == 4401)
        #expect(notAuth.frames.isEmpty)
        // A page that sends nothing: on a loaded machine the close frame can come as soon as the upgrade's response.
        let started = ContinuousClock.now
        let silent = try RawWebSocketClient(port: frontend.port)
        try await silent.handshake(first: nil)
        let close = try await silent.closeFrame(timeout: .seconds(10))
        #expect(close.code == 4401 && close.texts == 0)
        #expect(ContinuousClock.now - started >= .milliseconds(450))
        await frontend.stop()
    }

    @Test("a page that stops reading is closed once its buffer passes the bound; the bridge never waits for it")
    func stalledClientIsClosed() async throws {
        let frontend = try await FrontendHarness.start(limits: TapLimits(messages: 256, bytes: 1 << 20))
        let client = try RawWebSocketClient(port: frontend.port)
        try await client.handshake(first: #"{"auth":""}"#)
        try await waitUntil("the socket's subscription", timeout: .seconds(10)) { frontend.tap.readerCount == 1 }
        // 16 MB of events: far more than the socket buffers and the 1 MiB bound hold.
        let payload = Array(("{\"pad\":\"" + String(repeating: "x", count: 64 * 1024) + "\"}").utf8)
        let started = ContinuousClock.now
        for _ in 0..<256 { frontend.tap.record(topic: "t2m/bridge/event", payload: payload, retain: false) }
        #expect(ContinuousClock.now - started < .seconds(5), "publishing waited for the stalled socket")
        try await waitUntil("the stalled socket dropped", timeout: .seconds(10)) { frontend.tap.readerCount == 0 }
        let received = try await client.drainUntilClosed(timeout: .seconds(30))
        #expect(received < 256 * payload.count / 2)
        await frontend.stop()
    }

    @Test("a page from another origin, or under a rebound name, cannot open the websocket; the page's own origin can")
    func crossOrigin() async throws {
        let frontend = try await FrontendHarness.start()
        let host = "127.0.0.1:\(frontend.port)"
        await #expect(throws: TestFailure.self) {
            try await RawWebSocketClient(port: frontend.port).handshake(first: "{}", host: host, origin: "http://evil.example")
        }
        try await RawWebSocketClient(port: frontend.port).handshake(first: "{}", host: host, origin: "http://\(host)")
        // DNS rebinding: a foreign name resolving to 127.0.0.1 is its own origin, but not a loopback host.
        let rebound = "attacker.example:\(frontend.port)"
        await #expect(throws: TestFailure.self) {
            try await RawWebSocketClient(port: frontend.port).handshake(first: "{}", host: rebound, origin: "http://\(rebound)")
        }
        let local = "localhost:\(frontend.port)"
        try await RawWebSocketClient(port: frontend.port).handshake(first: "{}", host: local, origin: "http://\(local)")
        await frontend.stop()
    }

    @Test("past the limit of pages a new socket is closed with 1013, and gets in once a place is free")
    func socketLimit() async throws {
        let frontend = try await FrontendHarness.start(maxSockets: 2)
        let holding = [try RawWebSocketClient(port: frontend.port), try RawWebSocketClient(port: frontend.port)]
        for page in holding { try await page.handshake(first: #"{"auth":""}"#) }
        try await waitUntil("two pages subscribed", timeout: .seconds(10)) { frontend.tap.readerCount == 2 }
        // A raw client: the close frame and the server's end of the connection come right behind the upgrade's
        // response. A client library still upgrading when all three are in its socket loses the last two, and waits.
        let refused = try RawWebSocketClient(port: frontend.port)
        try await refused.handshake(first: #"{"auth":""}"#)
        let close = try await refused.closeFrame(timeout: .seconds(10))
        #expect(close.code == 1013 && close.texts == 0)
        holding[1].hangUp()
        try await waitUntil("a place free", timeout: .seconds(30)) { frontend.tap.readerCount == 1 }
        let admitted = try await Self.session(frontend.api, first: #"{"auth":""}"#) { !$0.isEmpty }
        #expect(Self.topics(admitted.frames).first == "bridge/state")
        _ = holding
        await frontend.stop()
    }
}
