import Bridge
import BridgeConfig
import BridgeCore
import Frontend
import Logging
import Synchronization
import Testing
import TestSupport

/// What a client that is not let in, or has not shown its token, can hold; what reaches a log line; what every answer
/// tells the browser; and a page that would be open to the network refusing to start.
@Suite("Frontend hardening: slots, headers, log lines, an open page refused", .timeLimit(.minutes(2)))
struct HardeningTests {
    @Test("every answer, refusals included, says frame-ancestors 'self' and nosniff")
    func headersOnEveryAnswer() async throws {
        let frontend = try await FrontendHarness.start()
        let cases: [(String, [(String, String)])] = [
            ("/", []), ("/app.js", []), ("/style.css", []), ("/healthz", []), ("/metrics", []), ("/logs", []),
            ("/nothing.js", []), ("/ingress", []), ("/api", []), ("/", [("Host", "attacker.example")]),
        ]
        for (path, headers) in cases {
            let answer = try await HTTPProbe.get(frontend.url + path, headers: headers)
            #expect(answer.headers["content-security-policy"]?.contains("frame-ancestors 'self'") == true, "\(path) \(answer.status)")
            #expect(answer.headers["x-content-type-options"] == "nosniff", "\(path) \(answer.status)")
        }
        await frontend.stop()

        let closed = try await FrontendHarness.start(allowFrom: ["127.0.0.1"])
        let outsider = try RawWebSocketClient(port: closed.port, from: "127.0.0.2")
        try outsider.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answer = String(decoding: try await outsider.receiveUntilClosed(timeout: .seconds(5)), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 403 ") && answer.contains("X-Content-Type-Options: nosniff"), "\(answer)")
        await closed.stop()
    }

    @Test("connections from addresses allow_from does not list take no place: healthz still answers the listed one")
    func refusedTakeNoPlace() async throws {
        let frontend = try await FrontendHarness.start(maxConnections: 2, allowFrom: ["127.0.0.1"])
        // Each asks and would keep its connection open for the next request.
        var outsiders: [RawWebSocketClient] = []
        for _ in 0..<4 {
            let outsider = try RawWebSocketClient(port: frontend.port, from: "127.0.0.2")
            try outsider.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            outsiders.append(outsider)
        }
        try await Task.sleep(for: .milliseconds(500))
        let probe = try RawWebSocketClient(port: frontend.port)
        try probe.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let answer = String(decoding: try await probe.receiveUntilClosed(timeout: .seconds(5)), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 200 "), "\(answer)")
        for outsider in outsiders { outsider.hangUp() }
        await frontend.stop()
    }

    @Test("connections that have asked nothing make room for one that asks: healthz answers while they fill every place")
    func silentMakeRoom() async throws {
        let frontend = try await FrontendHarness.start(maxConnections: 3)
        var silent: [RawWebSocketClient] = []
        for _ in 0..<3 {
            silent.append(try RawWebSocketClient(port: frontend.port))
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .milliseconds(300))
        let probe = try RawWebSocketClient(port: frontend.port)
        try probe.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let answer = String(decoding: try await probe.receiveUntilClosed(timeout: .seconds(5)), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 200 "), "\(answer)")
        #expect(try await silent[0].drainUntilClosed(timeout: .seconds(5)) == 0, "the one that waited longest is closed")
        for client in silent { client.hangUp() }
        await frontend.stop()
    }

    @Test("sockets that have not shown their token hold no page's place, and only so many may wait at once")
    func unauthenticatedHoldNoPlace() async throws {
        let frontend = try await FrontendHarness.start(token: "s3cret", authTimeout: .seconds(30), maxSockets: 2)
        var silent: [RawWebSocketClient] = []
        for _ in 0..<2 {
            let client = try RawWebSocketClient(port: frontend.port)
            try await client.handshake(first: nil)
            silent.append(client)
        }
        let page = try await APISocketTests.session(frontend.api, first: #"{"auth":"s3cret"}"#) { !$0.isEmpty }
        #expect(APISocketTests.topics(page.frames).first == "bridge/state", "a page with its token gets in: \(page)")
        // 16 wait at most: two are waiting, so 14 more fill the places, and the next is told to come back.
        for _ in 0..<14 {
            let client = try RawWebSocketClient(port: frontend.port)
            try await client.handshake(first: nil)
            silent.append(client)
        }
        try await Task.sleep(for: .milliseconds(300))
        let late = try RawWebSocketClient(port: frontend.port)
        try await late.handshake(first: nil)
        let close = try await late.closeFrame(timeout: .seconds(10))
        #expect(close.code == 1013 && close.texts == 0)
        for client in silent { client.hangUp() }
        await frontend.stop()
    }

    @Test("CR, LF and other control characters from a page's frame reach the log line escaped")
    func logLinesEscaped() async throws {
        let logs = LogCapture()
        let frontend = try await FrontendHarness.start(allowFrom: ["127.0.0.1"], logger: logs.logger("frontend"))
        let client = try RawWebSocketClient(port: frontend.port)
        try await client.handshake(
            first: #"{"topic":"a/set\r\nINFO [bridge] forged\u001b[2J","payload":{}}"#,
            headers: ["X-Ingress-Path: /api/hassio_ingress/abc", "X-Remote-User-Name: alice"])
        let line = try await waitForValue("the change logged", timeout: .seconds(10)) {
            logs.all.first { $0.contains("Change from the page") && $0.contains("alice") }
        }
        #expect(!line.contains("\n") && !line.contains("\r") && !line.contains("\u{1B}"), "\(line)")
        #expect(line.contains(#"a/set\r\nINFO [bridge] forged\u{1B}[2J"#), "\(line)")
        await frontend.stop()
    }

    @Test(
        "escaping for a log line",
        arguments: [
            ("plain/topic", "plain/topic"), ("a\nb", #"a\nb"#), ("a\r\nb", #"a\r\nb"#), ("tab\there", #"tab\there"#),
            ("\u{1B}[2J", #"\u{1B}[2J"#), ("\u{85}next", #"\u{85}next"#), ("line\u{2028}sep", #"line\u{2028}sep"#), ("ünï", "ünï"),
        ])
    func escaping(text: String, logged: String) {
        #expect(LogText.escaped(text) == logged)
        #expect(LogText.escaped(String(repeating: "x", count: 300), limit: 4) == "xxxx…")
    }

    @Test("a page on a network address with neither auth_token nor allow_from is a config error with its line")
    func openPageIsAConfigError() throws {
        let open = "mqtt:\n  server: mqtt://localhost\nfrontend:\n  enabled: true\n  host: 0.0.0.0\n"
        do {
            _ = try ConfigLoader.parse(yaml: open, file: "config.yaml")
            Issue.record("an open page was accepted")
        } catch {
            #expect(error.issues.contains { $0.line == 5 && $0.keyPath == "frontend.host" && $0.message.contains("auth_token") }, "\(error)")
        }
        _ = try ConfigLoader.parse(yaml: open + "  auth_token: s3cret\n", file: "config.yaml")
        _ = try ConfigLoader.parse(yaml: open + "  allow_from: [172.30.32.2]\n", file: "config.yaml")
        _ = try ConfigLoader.parse(yaml: open.replacing("0.0.0.0", with: "\"::1\""), file: "config.yaml")
        _ = try ConfigLoader.parse(yaml: open.replacing("enabled: true", with: "enabled: false"), file: "config.yaml")
    }

    @Test("settings made otherwise that would open the page to the network: it does not start, and says why")
    func openPageDoesNotStart() async throws {
        var settings = FrontendSettings()
        settings.enabled = true
        settings.host = "0.0.0.0"
        settings.port = 0
        let logs = LogCapture()
        let bridge = try await MemoryBridge.start(options: .fastForTests())
        let link = FrontendLink(tap: PublishTap(base: "t2m"), inbox: bridge.inbox, base: "t2m", isConnected: { true })
        let listening = Mutex(false)
        let service = FrontendService(settings: settings, link: link, logger: logs.logger("frontend")) { _ in listening.withLock { $0 = true } }
        let task = Task { try await service.run() }
        let line = try await waitForValue("the refusal logged", timeout: .seconds(10)) {
            logs.all.first { $0.contains("does not start") }
        }
        #expect(line.contains("ERROR") && line.contains("auth_token"), "\(line)")
        try await Task.sleep(for: .milliseconds(500))
        #expect(!listening.withLock { $0 })
        task.cancel()
        _ = await task.result
        await bridge.stop()
    }
}
