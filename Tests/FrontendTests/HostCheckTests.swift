import BridgeConfig
@testable import Frontend
import Testing
import TestSupport

/// What a hostile page can reach: another origin, a sandboxed frame (`Origin: null`), a name rebound to this machine
/// (one that only starts like 127.x too), a client posing as Home Assistant's ingress.
@Suite("Frontend Host and Origin checks, on every route and the websocket", .timeLimit(.minutes(2)))
struct HostCheckTests {
    /// Whether the websocket upgrade is refused with 403 (and not let in).
    static func refused(_ port: Int, host: String, origin: String? = nil, headers: [String] = []) async throws -> Bool {
        do {
            try await RawWebSocketClient(port: port).handshake(first: nil, host: host, origin: origin, headers: headers)
            return false
        } catch let failure as TestFailure {
            return "\(failure)".contains("403")
        }
    }

    @Test("Origin: null (a sandboxed frame, a data: or file: page) and any origin but http(s)://Host are refused with 403")
    func nullOrigin() async throws {
        let frontend = try await FrontendHarness.start()
        let host = "127.0.0.1:\(frontend.port)"
        #expect(try await Self.refused(frontend.port, host: host, origin: "null"))
        #expect(try await Self.refused(frontend.port, host: host, origin: "file://"))
        #expect(try await Self.refused(frontend.port, host: host, origin: "chrome-extension://abc"))
        #expect(try await Self.refused(frontend.port, host: host, origin: "http://\(host).evil.example"))
        #expect(try await HTTPProbe.get(frontend.url + "/logs", headers: [("Origin", "null")]).status == 403)
        #expect(try await !Self.refused(frontend.port, host: host, origin: "http://\(host)"))
        #expect(try await !Self.refused(frontend.port, host: host, origin: "https://\(host)"))
        // A client that is no browser's page sends no origin.
        #expect(try await !Self.refused(frontend.port, host: host))
        await frontend.stop()
    }

    @Test(
        "loopback is 127.0.0.0/8 as an IP literal, ::1 and localhost; a name that only starts with 127. is not",
        arguments: [
            ("127.0.0.1", true), ("127.255.0.9", true), ("localhost", true), ("LocalHost", true), ("[::1]", true),
            ("::1", true), ("0:0:0:0:0:0:0:1", true), ("::ffff:127.0.0.1", true), ("127.0.0.1.attacker.example", false),
            ("127.attacker.example", false), ("127.0.0.1.", false), ("0127.0.0.1", false), ("127.0.0.256", false),
            ("127.0.1", false), ("128.0.0.1", false), ("localhost.attacker.example", false), ("[::2]", false), ("::", false),
            ("::ffff:10.0.0.1", false), ("", false), ("[::1", false),
        ])
    func loopbackTable(name: String, loopback: Bool) {
        #expect(HostNames.isLoopback(name) == loopback)
    }

    @Test(
        "a Host header's name: without its port, lowercased, nil when it is no host",
        arguments: [
            ("127.0.0.1:8080", "127.0.0.1"), ("[::1]:8080", "[::1]"), ("[::1]", "[::1]"), ("Pi.Local", "pi.local"),
            ("a:b", nil), ("a:", nil), ("[::1]x", nil), ("[evil]:80", nil), ("a b:80", nil), ("evil@127.0.0.1", nil), ("", nil),
        ] as [(String, String?)])
    func hostNames(header: String, name: String?) {
        #expect(HostNames.name(ofHost: header) == name)
    }

    @Test("a name rebound to 127.0.0.1 that starts with 127. gets neither the websocket nor the log")
    func loopbackPrefix() async throws {
        let frontend = try await FrontendHarness.start()
        let rebound = "127.0.0.1.attacker.example:\(frontend.port)"
        #expect(try await Self.refused(frontend.port, host: rebound, origin: "http://\(rebound)"))
        #expect(try await HTTPProbe.get(frontend.url + "/logs", headers: [("Host", rebound)]).status == 403)
        await frontend.stop()
    }

    @Test("every route but healthz answers only the page's own names: loopback, the configured host, base_url's host")
    func hostOnEveryRoute() async throws {
        let frontend = try await FrontendHarness.start(baseURL: "http://things2mqtt.local:8080/")
        let foreign = "attacker.example:\(frontend.port)"
        for path in ["/", "/app.js", "/style.css", "/metrics", "/logs", "/prefix/", "/api"] {
            #expect(try await HTTPProbe.get(frontend.url + path, headers: [("Host", foreign)]).status == 403, "\(path)")
        }
        // No origin: a rebound page's fetch of the websocket's path sends one, but a script that is not a page can omit it.
        #expect(try await Self.refused(frontend.port, host: foreign))
        #expect(try await HTTPProbe.get(frontend.url + "/healthz", headers: [("Host", foreign)]).status == 200)
        for host in ["127.0.0.1:\(frontend.port)", "localhost:\(frontend.port)", "[::1]:\(frontend.port)", "things2mqtt.local:8080"] {
            #expect(try await HTTPProbe.get(frontend.url + "/", headers: [("Host", host)]).status == 200, "\(host)")
        }
        await frontend.stop()
    }

    @Test("beyond loopback the page answers its IP literals and configured names, never another name")
    func policyBeyondLoopback() {
        var settings = FrontendSettings()
        settings.host = "0.0.0.0"
        settings.authToken = Secret("s3cret")
        let open = HostPolicy(settings)
        #expect(open.accepts(host: "192.168.1.5:8080") && open.accepts(host: "[fe80::1]:8080") && open.accepts(host: "localhost"))
        #expect(!open.accepts(host: "pi.local:8080") && !open.accepts(host: nil) && !open.accepts(host: "192.168.1.5.nip.io"))
        settings.baseURL = "https://user@Pi.local:8443/things2mqtt/"
        #expect(HostPolicy(settings).accepts(host: "pi.local:8080"))
        settings.host = "127.0.0.1"
        settings.baseURL = nil
        #expect(!HostPolicy(settings).accepts(host: "192.168.1.5:8080"))
    }

    @Test("X-Ingress-Path is believed only with allow_from set: without it, it opens no check and sets no <base>")
    func ingressOnlyFromAllowFrom() async throws {
        let ingress = ["X-Ingress-Path: /api/hassio_ingress/abc", "X-Remote-User-Name: mallory"]
        let open = try await FrontendHarness.start()
        #expect(try await Self.refused(open.port, host: "attacker.example", origin: "http://evil.example", headers: ingress))
        let page = try await HTTPProbe.get(open.url + "/", headers: [("X-Ingress-Path", "/api/hassio_ingress/abc")])
        #expect(page.status == 200 && !page.body.contains("<base"))
        await open.stop()

        // The add-on's case: the proxy's address is the only one let in, and it names Home Assistant's own host.
        let proxied = try await FrontendHarness.start(allowFrom: ["127.0.0.1"])
        let host = "homeassistant.local:8123"
        #expect(try await !Self.refused(proxied.port, host: host, origin: "http://\(host)", headers: ingress))
        #expect(try await Self.refused(proxied.port, host: host, origin: "null", headers: ingress))
        let framed = try await HTTPProbe.get(proxied.url + "/", headers: [("X-Ingress-Path", "/api/hassio_ingress/abc"), ("Host", host)])
        #expect(framed.status == 200 && framed.body.contains(#"<base href="/api/hassio_ingress/abc/">"#))
        await proxied.stop()
    }
}
