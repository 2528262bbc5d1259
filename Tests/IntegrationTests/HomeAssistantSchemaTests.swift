import BLEDriver
import BLEModels
import BridgeCore
import Foundation
import Testing
import TestSupport

@Suite("Discovery payloads pass Home Assistant 2024.1's own schemas", .tags(.integration), .timeLimit(.minutes(3)))
struct HomeAssistantSchemaTests {
    @Test("legacy mode: light, sensor-like device, a Nova flash, a plain BLE device and bridge device")
    func legacyPayloads() async throws {
        let venv = ProcessInfo.processInfo.environment["HA2024_VENV"] ?? "/opt/ha2024"
        try #require(
            FileManager.default.isExecutableFile(atPath: venv + "/bin/python"),
            "Home Assistant 2024.1 venv missing at \(venv): run Tests/ha-schema/setup.sh")
        let broker = try await Broker.start()
        let extra = "devices:\n  lifx_d073d5000001:\n    alias: kitchen/ceiling\n  ble_a4c138aabbcc:\n    alias: Bedroom Sensor\n"
        let bridge = try await InProcessBridge.start(
            broker: broker, yaml: TestConfig.yaml(port: broker.port, legacy: true, extra: extra), integrations: [.lifx, .ble])
        bridge.driver(.lifx).announce(Fixtures.colorLight(), state: ["state": "ON"])
        bridge.driver(.ble).announce(Fixtures.sensorBox(), state: ["temperature": 21.5])
        let nova = BLEDescriptors.device(
            id: DeviceID("ble_aabbccddee01")!, address: try BLEAddress("AA:BB:CC:DD:EE:01"), name: "Nova",
            services: [try BLEUUID("fff0")])
        let plain = BLEDescriptors.device(
            id: DeviceID("ble_c0ffee00180d")!, address: try BLEAddress("C0:FF:EE:00:18:0D"), name: "Heart Rate",
            services: [try BLEUUID("180d")])
        #expect(nova.kind == "light" && plain.kind == "ble")
        bridge.driver(.ble).announce(nova, state: ["state": "ON", "brightness": 255, "color_temp": 2700, "signal": 0.8])
        bridge.driver(.ble).announce(plain, state: ["rssi": -60, "signal": 0.6])
        try await broker.waitForRetained("t2m/bridge/devices") { $0.json?.arrayCount == 4 }

        let configs = try await broker.retainedMessages(under: "homeassistant/#")
        // The bridge's connectivity sensor and one status sensor per running integration (lifx, ble).
        let expectedCount = 1 + 2 + 2 + Fixtures.sensorBox().exposes.count + nova.exposes.count + plain.exposes.count
        #expect(configs.count == expectedCount, "\(configs.keys.sorted())")
        let components = Set(configs.keys.map { $0.split(separator: "/")[1] })
        #expect(components == ["binary_sensor", "light", "sensor", "number", "switch", "select", "text", "button", "scene"])

        let items: [JSONValue] = try configs.keys.sorted().map { topic in
            let payload = try #require(configs[topic]?.json, "\(topic) is not JSON")
            return ["topic": .string(topic), "payload": payload]
        }
        let folder = try TemporaryDirectory(prefix: "ha-schema")
        defer { folder.remove() }
        let file = try folder.write("discovery.json", JSONValue.array(items).jsonString)
        let script = BridgeProcess.packageRoot + "/Tests/ha-schema/validate.py"
        let child = try ChildProcess(
            executable: "/usr/bin/env", arguments: ["python3", script, "--verbose", file],
            stdoutPath: folder.file("out.txt"), stderrPath: folder.file("out.txt"))
        let status = try await child.waitForExit(timeout: .seconds(150))
        #expect(status == 0, "validate.py exited with \(status):\n\(child.stdout)")
        let accepted = child.stdout.split(separator: "\n").filter { $0.hasPrefix("OK ") }
        #expect(accepted.count == expectedCount, "\(child.stdout)")
        await bridge.stop()
    }
}
