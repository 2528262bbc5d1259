import LIFXModels
import BLEDriver
import BLEFormats
import BLEModels
import BridgeCore
import Foundation
import Testing
import TestSupport
import Support

/// Every entity kind the bridge publishes goes through a real Home Assistant: the legacy payloads through
/// 2024.1 and the default ones through 2025.4. Each config's value templates are also rendered against the
/// device's retained state and against an empty one, which must not make Home Assistant log anything.
@Suite("Discovery payloads pass Home Assistant's own schemas", .tags(.integration), .timeLimit(.minutes(5)), .needs(.broker, .homeAssistant))
struct HomeAssistantSchemaTests {
    @Test("legacy mode passes Home Assistant 2024.1")
    func legacyPayloads() async throws {
        try await checkEveryKind(legacy: true, with: .legacy)
    }

    @Test("the default mode passes Home Assistant 2025.4")
    func currentPayloads() async throws {
        try await checkEveryKind(legacy: false, with: .current)
    }

    /// LIFX-style lights (colour, white, on/off), LIFX scenes, a device with every other expose kind, a Nova
    /// flash, a plain BLE device and the bridge's own entities.
    private func checkEveryKind(legacy: Bool, with release: HomeAssistantChecker.Release) async throws {
        let broker = try await Broker.start()
        let extra = "devices:\n  lifx_d073d5000001:\n    alias: kitchen/ceiling\n  ble_a4c138aabbcc:\n    alias: Bedroom Sensor\n"
        let bridge = try await InProcessBridge.start(
            broker: broker, yaml: TestConfig.yaml(port: broker.port, legacy: legacy, extra: extra), integrations: [.lifx, .ble])
        bridge.driver(.lifx).announce(Fixtures.colorLight(), state: ["state": "ON", "brightness": 128, "color_temp": 4000])
        bridge.driver(.lifx).announce(Fixtures.whiteLight(), state: ["state": "OFF", "color_temp": 2700])
        bridge.driver(.lifx).announce(Fixtures.plainLight(), state: ["state": "ON"])
        bridge.driver(.lifx).announce(Fixtures.scenes())
        bridge.driver(.ble).announce(Fixtures.sensorBox(), state: Fixtures.sensorBoxState)
        let nova = BLEDescriptors.device(
            id: DeviceID("ble_aabbccddee01")!, address: try BluetoothAddress("AA:BB:CC:DD:EE:01"), name: "Nova",
            services: [try BLEUUID("fff0")])
        let plain = BLEDescriptors.device(
            id: DeviceID("ble_c0ffee00180d")!, address: try BluetoothAddress("C0:FF:EE:00:18:0D"), name: "Heart Rate",
            services: [try BLEUUID("180d")])
        #expect(nova.kind == "light" && plain.kind == "ble")
        bridge.driver(.ble).announce(nova, state: ["state": "ON", "brightness": 255, "color_temp": 2700, "signal": 0.8, "timeout": 1500])
        bridge.driver(.ble).announce(plain, state: ["rssi": -60, "signal": 0.6, "last_seen": "2025-01-01T00:00:00Z"])
        let (sensor, sensorState) = try Self.everyQuantity()
        bridge.driver(.ble).announce(sensor, state: sensorState)
        try await broker.waitForRetained("t2m/bridge/devices") { $0.json?.arrayCount == 8 }

        let configs = try await broker.retainedMessages(under: "homeassistant/#")
        let devices = [
            Fixtures.colorLight(), Fixtures.whiteLight(), Fixtures.plainLight(), Fixtures.scenes(), Fixtures.sensorBox(), nova, plain,
            sensor,
        ]
        // The bridge's connectivity sensor and one status sensor per running integration (lifx, ble).
        let expectedCount = 1 + 2 + devices.map(\.leaves.count).reduce(0, +)
        #expect(configs.count == expectedCount, "\(configs.count) configs")
        let components = Set(configs.keys.map { $0.split(separator: "/")[1] })
        #expect(components == ["binary_sensor", "light", "sensor", "number", "switch", "select", "text", "button", "scene", "event"])

        let items = try await Self.items(configs, broker: broker)
        let report = try await HomeAssistantChecker.check(items, with: release)
        #expect(report.status == 0, "validate.py exited with \(report.status):\n\(report.rejected.joined(separator: "\n"))")
        #expect(report.accepted.sorted() == configs.keys.sorted())
        #expect(report.logged.isEmpty, "Home Assistant logged: \(report.logged)")
        await bridge.stop()
    }

    /// A BLE sensor with every quantity a BTHome advert or a standard profile can report, and two subscribed
    /// characteristics under `gatt`, with a value for each in its state.
    static func everyQuantity() throws -> (DeviceDescriptor, [String: JSONValue]) {
        var descriptor = BLEDescriptors.device(
            id: DeviceID("ble_b7b7b7b7b7b7")!, address: try BluetoothAddress("B7:B7:B7:B7:B7:B7"), name: "Everything", services: [])
        var quantities: [Quantity] = []
        for quantity in BTHome.objects.map(\.quantity) + [.heartRate, .sensorContact, .energyExpended, .rrIntervals]
        where !quantities.contains(where: { $0.key == quantity.key }) {
            quantities.append(quantity)
        }
        let custom = try BLEUUID("12345678-1234-5678-1234-56789abcdef1")
        descriptor.exposes += quantities.compactMap(BLEDescriptors.expose) + [BLEDescriptors.gatt([custom, try BLEUUID("2a37")])]
        var state: [String: JSONValue] = ["rssi": -60, "signal": 0.5, "last_seen": "2025-01-01T00:00:00Z"]
        for quantity in quantities {
            switch quantity.kind {
            case .numeric: state[quantity.key] = 21.5
            case .binary: state[quantity.key] = "ON"
            case .text: state[quantity.key] = quantity.deviceClass == "timestamp" ? "2025-01-01T00:00:00Z" : "text"
            case .event: break  // occurrences, published apart from the state
            case .list: state[quantity.key] = [0.8, 0.82]
            }
        }
        state["gatt"] = [custom.description: "c0ffee"]
        #expect(descriptor.leaves.count > 60, "\(descriptor.leaves.count) leaves")
        return (descriptor, state)
    }

    /// The configs as checker items: each with the retained state it reads, and an empty device state; an event
    /// entity (top-level here, so its object id is its property) with an occurrence of its own, which must fire,
    /// and one of another property, which must not.
    static func items(_ configs: [String: ReceivedMessage], broker: Broker) async throws -> [JSONValue] {
        var items: [JSONValue] = []
        for topic in configs.keys.sorted() {
            let payload = try #require(configs[topic]?.json, "\(topic) is not JSON")
            if topic.split(separator: "/")[1] == "event" {
                let property = JSONValue.string(String(topic.split(separator: "/").dropLast().last ?? ""))
                guard case .array(let types)? = payload["event_types"], let type = types.first?.stringValue else {
                    throw TestFailure("\(topic) has no event_types")
                }
                let own: JSONValue = ["event_type": .string(type), "property": property, "action": "x"]
                let other: JSONValue = ["event_type": .string(type), "property": "another", "action": "x"]
                let events: [HomeAssistantChecker.EventSample] = [
                    .init(own, fires: type, attributes: ["property": property, "action": "x"]), .init(other, fires: nil),
                ]
                items.append(HomeAssistantChecker.item(topic: topic, payload: payload, events: events))
                continue
            }
            var states: [(JSONValue, String?)] = []
            if let stateTopic = payload["state_topic"]?.stringValue {
                let state = try #require(try await broker.retainedJSON(stateTopic), "no retained state at \(stateTopic)")
                states.append((state, nil))
                // A device's state before its values are known; a light's always has `state` (the bridge holds it back until then).
                if !stateTopic.hasPrefix("t2m/bridge/"), topic.split(separator: "/")[1] != "light" { states.append(([:], nil)) }
            }
            items.append(HomeAssistantChecker.item(topic: topic, payload: payload, states: states))
        }
        return items
    }
}
