import Bridge
import BridgeConfig
import BridgeCore
import Foundation
import Testing
import TestSupport
import Things2MQTTApp

/// A family the daemon does not have, added the way LIFX, BLE and EV3 are: one settings type, one
/// `DeviceFamily`, one entry beside the registry's list. No shared file names it.
enum ChimeFamily: DeviceFamily {
    static let idForm = "chime_<id>"

    static func makeDriver(_ settings: ChimeSettings, context: DriverContext) -> (any DeviceDriver)? {
        ScriptedDriver(integration: .chime, sink: context.sink)
    }
}

extension Integration {
    /// Door chimes, a family that exists only in these tests.
    static let chime: Integration = "chime"
}

/// The `chime` section: a secret, and a bounded value checked where it is written.
struct ChimeSettings: FamilySettings {
    static let integration = Integration.chime
    var enabled = false
    var apiKey: Secret?
    var volume = 5

    init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case enabled, apiKey = "api_key", volume
    }

    init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        enabled = reader.value(.enabled, default: false)
        apiKey = reader.optional(.apiKey)
        volume = reader.value(.volume, default: 5)
        if !(0...10).contains(volume) { reader.problem(.volume, "must be 0 to 10") }
    }
}

@Suite("a family added through the contract alone")
struct ExtraFamilyTests {
    static let families = Families.sections + [ChimeFamily.section]

    @Test("its section is decoded by its own type, with line and column for a bad value")
    func section() throws {
        let config = try ConfigLoader.parse(
            yaml: "chime:\n  enabled: true\n  volume: 7\n", file: "chime.yaml", families: Self.families)
        #expect(config[ChimeSettings.self].volume == 7)
        #expect(config.integrations.last == .chime)
        let error = #expect(throws: ConfigErrors.self) {
            try ConfigLoader.parse(yaml: "chime:\n  volume: 11\n  loud: yes\n", file: "chime.yaml", families: Self.families)
        }
        #expect(error?.description == "chime.yaml:2:11: chime.volume: must be 0 to 10\nchime.yaml:3:3: chime.loud: unknown key (expected one of: enabled, api_key, volume)")
        let unknown = #expect(throws: ConfigErrors.self) {
            try ConfigLoader.parse(yaml: "devices:\n  bell_1:\n    alias: x\n", file: "chime.yaml", families: Self.families)
        }
        #expect(unknown?.issues.first?.message.hasSuffix("ev3_<serial>, chime_<id>)") == true)
    }

    @Test("its driver is built from its settings only when enabled")
    func driver() throws {
        let sink = BridgeInbox().deviceSink
        let off = try ConfigLoader.parse(yaml: "", file: "chime.yaml", families: Self.families)
        #expect(ChimeFamily.driver(for: off, sink: sink) == nil)
        let on = try ConfigLoader.parse(yaml: "chime:\n  enabled: true\n", file: "chime.yaml", families: Self.families)
        #expect(ChimeFamily.driver(for: on, sink: sink)?.integration == .chime)
    }

    @Test("its secret is redacted in bridge/info, and its devices are published")
    func published() async throws {
        let yaml = TestConfig.yaml(port: 1883, extra: "chime:\n  enabled: true\n  api_key: hush-1234\n")
        let bridge = try await MemoryBridge.start(yaml: yaml, integrations: [.chime], families: Self.families)
        let id = DeviceID(integration: .chime, native: "Hall-1")
        bridge.driver(.chime).announce(
            DeviceDescriptor(id: id, kind: "chime", manufacturer: "Test", model: "Door chime", label: "Hall",
                exposes: [.binary("ringing", name: "Ringing")]),
            state: ["ringing": "OFF"])
        try await waitUntil("the chime in bridge/devices") {
            bridge.transport.retained("t2m/bridge/devices").map { String(decoding: $0, as: UTF8.self) }?.contains("chime_hall1") == true
        }
        try await waitUntil("the chime's state") { bridge.transport.retained("t2m/chime_hall1") != nil }
        let info = try #require(bridge.transport.retained("t2m/bridge/info").flatMap { JSONValue.parse($0) })
        #expect(info["config"]?["chime"]?["api_key"] == "***")
        #expect(info["config"]?["chime"]?["volume"] == 5)
        #expect(info["integrations"]?["chime"]?["status"] != nil)
        #expect(!String(decoding: try #require(bridge.transport.retained("t2m/bridge/info")), as: UTF8.self).contains("hush-1234"))
    }
}
