import AsyncHTTPClient
import Foundation
@testable import Frontend
import Testing
import TestSupport

@Suite("Frontend HTTP: the page under any prefix, healthz", .timeLimit(.minutes(2)))
struct StaticFilesTests {
    func get(_ url: String, headers: [(String, String)] = []) async throws -> (
        status: UInt, body: String, type: String?, location: String?, policy: String?
    ) {
        var request = HTTPClientRequest(url: url)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 4 << 20)
            try await client.shutdown()
            return (
                response.status.code, String(buffer: body), response.headers.first(name: "content-type"),
                response.headers.first(name: "location"), response.headers.first(name: "content-security-policy")
            )
        } catch {
            try await client.shutdown()
            throw error
        }
    }

    @Test("the embedded files are the ones in Sources/Frontend/Web (compiled in by the EmbedWeb plugin)")
    func embeddedMatchesSources() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/Frontend/Web")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == WebAssets.files.keys.sorted())
        for name in names {
            var text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            if text.hasSuffix("\n") { text.removeLast() }
            #expect(WebAssets.files[name]?.body == text, "\(name) differs from its embedded copy")
        }
    }

    @Test("every URL in the page is relative: nothing starts with /, and nothing names another host")
    func relativeURLs() {
        for (name, asset) in WebAssets.files {
            for pattern in [#"src="/"#, #"href="/"#, #"from '/"#, "http://", "https://", "//cdn"] {
                #expect(!asset.body.contains(pattern), "\(name) contains \(pattern)")
            }
        }
    }

    @Test("the page and its files load at the root and under any prefix; healthz follows the broker connection")
    func servesUnderPrefix() async throws {
        // Ingress's X-Ingress-Path is believed only with allow_from set; this machine stands for the proxy.
        let frontend = try await FrontendHarness.start(allowFrom: ["127.0.0.1"])
        let root = try await get(frontend.url + "/")
        #expect(root.status == 200)
        #expect(root.type?.hasPrefix("text/html") == true)
        #expect(root.body.contains(#"src="app.js""#))
        #expect(root.policy?.contains("default-src 'self'") == true)
        let prefixed = try await get(frontend.url + "/api/hassio_ingress/abc/app.js")
        #expect(prefixed.status == 200)
        #expect(prefixed.type?.hasPrefix("text/javascript") == true)
        let bare = try await get(frontend.url + "/ingress")
        #expect(bare.status == 302)
        #expect(bare.location == "ingress/")
        let ingress = try await get(frontend.url + "/", headers: [("X-Ingress-Path", "/api/hassio_ingress/abc")])
        #expect(ingress.body.contains(#"<base href="/api/hassio_ingress/abc/">"#))
        let hostile = try await get(frontend.url + "/", headers: [("X-Ingress-Path", "\"><script>")])
        #expect(!hostile.body.contains("<base"))
        #expect(try await get(frontend.url + "/nothing.js").status == 404)
        #expect(try await get(frontend.url + "/healthz").status == 200)
        frontend.connected.value = false
        #expect(try await get(frontend.url + "/healthz").status == 503)
        await frontend.stop()
    }
}
