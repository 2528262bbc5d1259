import AsyncHTTPClient
import BridgeConfig
import Testing
import TestSupport

@Suite("Frontend behind Home Assistant's ingress: only the proxy's address, changes logged with the user", .timeLimit(.minutes(2)))
struct IngressTests {
    func status(_ url: String) async throws -> UInt {
        try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(10)).status.code
    }

    @Test("allow_from keeps the page, its files, healthz and the websocket to the listed addresses")
    func allowFrom() async throws {
        let closed = try await FrontendHarness.start(allowFrom: ["172.30.32.2"])
        for path in ["/", "/app.js", "/healthz", "/metrics", "/api/hassio_ingress/abc/"] {
            #expect(try await status(closed.url + path) == 403, "\(path)")
        }
        await #expect(throws: TestFailure.self) { try await RawWebSocketClient(port: closed.port).handshake(first: "{}") }
        await closed.stop()

        let open = try await FrontendHarness.start(allowFrom: ["172.30.32.2", "127.0.0.1"])
        #expect(try await status(open.url + "/") == 200)
        try await RawWebSocketClient(port: open.port).handshake(first: "{}")
        await open.stop()
    }

    @Test("a change made through ingress is logged with the Home Assistant user who made it, without its payload")
    func remoteUser() async throws {
        let logs = LogCapture()
        // Ingress is believed only with allow_from set; this machine stands for the proxy.
        let frontend = try await FrontendHarness.start(allowFrom: ["127.0.0.1"], logger: logs.logger("frontend"))
        let client = try RawWebSocketClient(port: frontend.port)
        try await client.handshake(
            first: #"{"topic":"lifx_d073d5000001/set","payload":{"state":"ON"}}"#,
            headers: ["X-Ingress-Path: /api/hassio_ingress/abc", "X-Remote-User-Name: alice"])
        try await waitUntil("the change logged", timeout: .seconds(10)) {
            logs.all.contains { $0.contains("Change from the page") && $0.contains("alice") && $0.contains("lifx_d073d5000001/set") }
        }
        #expect(!logs.all.contains { $0.contains("\"ON\"") })
        await frontend.stop()
    }

    @Test("allow_from takes IP addresses only, and an IPv4 client on an IPv6 socket counts as its IPv4 address")
    func settings() throws {
        var settings = FrontendSettings()
        #expect(settings.allows(nil) && settings.allows("10.0.0.1"))
        settings.allowFrom = ["172.30.32.2"]
        #expect(settings.allows("172.30.32.2") && settings.allows("::ffff:172.30.32.2"))
        #expect(!settings.allows("172.30.32.3") && !settings.allows(nil) && !settings.allows("::1"))
        let bad = "frontend:\n  allow_from: [172.30.32.2, supervisor]\n"
        #expect(throws: ConfigErrors.self) { try ConfigLoader.parse(yaml: bad, file: "config.yaml") }
    }
}
