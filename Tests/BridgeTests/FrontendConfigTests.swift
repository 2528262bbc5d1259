import BridgeConfig
import BridgeCore
import Foundation
import Testing
import TestSupport
import Things2MQTTApp

/// The `frontend` section: defaults, the token as a secret, checks with line and column, and its place in
/// discovery (`configuration_url`) and `bridge/info`.
@Suite("The frontend config section", .timeLimit(.minutes(1)))
struct FrontendConfigTests {
    static func parse(_ section: String, environment: [String: String] = [:], baseDirectory: String = ".") throws(ConfigErrors)
        -> Configuration
    {
        try ConfigLoader.parse(
            yaml: TestConfig.yaml(port: 1883, extra: section), file: "test.yaml", families: Families.sections,
            baseDirectory: baseDirectory, environment: environment)
    }

    @Test("off by default, on 127.0.0.1:8080 when enabled; the token from the environment or a file")
    func defaultsAndToken() throws {
        #expect(try Self.parse("").frontend == FrontendSettings())
        #expect(try Self.parse("").frontend.enabled == false)
        let enabled = try Self.parse("frontend:\n  enabled: true\n  auth_token: ${WEB_TOKEN}\n", environment: ["WEB_TOKEN": "abc"])
        #expect(enabled.frontend.host == "127.0.0.1" && enabled.frontend.port == 8080)
        #expect(enabled.frontend.authToken?.value == "abc")
        let folder = try TemporaryDirectory(prefix: "frontend")
        defer { folder.remove() }
        _ = try folder.write("token", "from-file\n")
        let fromFile = try Self.parse("frontend:\n  enabled: true\n  auth_token_file: token\n", baseDirectory: folder.path)
        #expect(fromFile.frontend.authToken?.value == "from-file")
        #expect(try Self.parse("frontend: true\n").frontend.enabled)
    }

    @Test("the token reads *** in bridge/info and never appears in it")
    func tokenIsSecret() throws {
        let config = try Self.parse("frontend:\n  enabled: true\n  auth_token: hunter2-web\n")
        #expect(config.redactedJSON["frontend"]?["auth_token"] == "***")
        #expect(!config.redactedJSON.jsonString.contains("hunter2"))
        #expect(!"\(config.frontend)".contains("hunter2"))
    }

    @Test("a bad port, base_url or unknown key is reported with line and column")
    func problems() {
        do {
            _ = try Self.parse("frontend:\n  port: 70000\n  base_url: ftp://x\n  colour: red\n")
            Issue.record("accepted")
        } catch {
            let paths = Set(error.issues.map(\.keyPath))
            #expect(paths == ["frontend.port", "frontend.base_url", "frontend.colour"], "\(error.issues)")
            #expect(error.issues.allSatisfy { $0.line > 0 && $0.column > 0 })
        }
    }

    @Test("with a base_url, each device's discovery links to its page; without one, no link")
    func configurationURL() async throws {
        let yaml = TestConfig.yaml(port: 1883, extra: "frontend:\n  enabled: true\n  base_url: http://pi.local:8080/t2m\n")
        let bridge = try await MemoryBridge.start(yaml: yaml)
        bridge.driver().announce(Fixtures.colorLight(), state: ["state": "ON"])
        let config = try await Self.lightConfig(bridge)
        #expect(config.json?["device"]?["configuration_url"] == "http://pi.local:8080/t2m/#/device/lifx_d073d5000001")
        await bridge.stop()
        let plain = try await MemoryBridge.start()
        plain.driver().announce(Fixtures.colorLight(), state: ["state": "ON"])
        let without = try await Self.lightConfig(plain)
        #expect(without.json?["device"]?["configuration_url"] == nil)
        await plain.stop()
    }

    static func lightConfig(_ bridge: MemoryBridge) async throws -> MemoryTransport.Published {
        try await waitForValue("the light's discovery config", timeout: .seconds(10)) {
            bridge.transport.published.first { $0.topic.hasPrefix("homeassistant/light/") && $0.topic.hasSuffix("/config") && !$0.payload.isEmpty }
        }
    }
}
