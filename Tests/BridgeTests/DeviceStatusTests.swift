import BLEModels
import Bridge
import BridgeCore
import Testing
import TestSupport

@Suite("Device status, availability and device events", .timeLimit(.minutes(1)))
struct DeviceStatusTests {
    static let id = DeviceID("ble_a4c138aabbcc")!

    func events(_ bridge: MemoryBridge, after mark: Int) -> [JSONValue] {
        bridge.transport.published.dropFirst(mark).filter { $0.topic == "t2m/bridge/event" }.compactMap(\.json)
            .filter { [.string("device_connected"), .string("device_disconnected")].contains($0["type"] ?? .null) }
    }

    @Test("status is in the retained state and bridge/devices; availability follows it; connection changes are events")
    func statusDrivesEverything() async throws {
        let bridge = try await MemoryBridge.start(integrations: [.ble])
        let driver = bridge.driver(.ble)
        driver.emit(.discovered(Fixtures.sensorBox()))
        driver.emit(.status(Self.id, .available))
        _ = try await bridge.waitForPublish("t2m/ble_a4c138aabbcc/availability") { $0.json == ["state": "online"] }
        let first = try await bridge.waitForPublish("t2m/ble_a4c138aabbcc") { $0.json?["status"] == "available" }
        let mark = first.index + 1
        var cursor = mark
        for status in [DeviceStatus.connecting, .ready, .busy, .ready, .available, .unavailable, .available] {
            driver.emit(.status(Self.id, status, detail: status == .available ? "link lost" : nil))
            let hit = try await bridge.waitForPublish("t2m/ble_a4c138aabbcc", after: cursor) { $0.json?["status"] == .string(status.rawValue) }
            cursor = hit.index + 1
        }
        let published = bridge.transport.published.dropFirst(mark)
        let statuses = published.filter { $0.topic == "t2m/ble_a4c138aabbcc" }.compactMap { $0.json?["status"]?.stringValue }
        #expect(statuses == ["connecting", "ready", "busy", "ready", "available", "unavailable", "available"])
        let availability = published.filter { $0.topic == "t2m/ble_a4c138aabbcc/availability" }.compactMap { $0.json?["state"]?.stringValue }
        #expect(availability == ["offline", "online"], "only a change to or from unavailable moves availability")
        let connectionEvents = events(bridge, after: mark)
        #expect(connectionEvents.map { $0["type"] } == ["device_connected", "device_disconnected"])
        #expect(connectionEvents.last?["data"]?["detail"] == "link lost")
        #expect(connectionEvents.last?["data"]?["status"] == "available")
        try await waitUntil("bridge/devices shows the device status") {
            guard case .array(let list)? = JSONValue.parse(bridge.transport.retained("t2m/bridge/devices") ?? []) else { return false }
            return list.first?["device_status"] == "available" && list.first?["status"] == "online"
        }
        await bridge.stop()
    }

    @Test("device events carry their type and data; repeated failures are summarised like any other")
    func occurrences() async throws {
        let bridge = try await MemoryBridge.start(integrations: [.ble])
        let driver = bridge.driver(.ble)
        driver.announce(Fixtures.sensorBox())
        let mark = bridge.transport.mark
        driver.emit(.occurred(Self.id, DeviceOccurrence(.interviewed, ["services": 3])))
        driver.emit(.occurred(Self.id, .commandFailed("no answer")))
        let interview = try await bridge.waitForPublish("t2m/bridge/event", after: mark) { $0.json?["type"] == "device_interview" }
        #expect(interview.json?["data"] == ["id": "ble_a4c138aabbcc", "alias": "ble_a4c138aabbcc", "services": 3])
        let failed = try await bridge.waitForPublish("t2m/bridge/event", after: mark) { $0.json?["type"] == "command_failed" }
        #expect(failed.json?["data"]?["error"] == "no answer")
        await bridge.stop()
    }

    @Test("integration status is typed: bridge/info and bridge/event show state, reason and detail, health_check counts it")
    func integrationStatus() async throws {
        let bridge = try await MemoryBridge.start(integrations: [.ble])
        let mark = bridge.transport.mark
        let status = IntegrationStatus(.offline, reason: "adapter_off", detail: "hci0 is powered off")
        bridge.driver(.ble).emit(.integrationStatus(.ble, status))
        try await waitUntil("bridge/info with the BLE status") {
            let info = JSONValue.parse(bridge.transport.retained("t2m/bridge/info") ?? [])
            return info?["integrations"]?["ble"]
                == ["status": "offline", "reason": "adapter_off", "detail": "hci0 is powered off", "devices": 0]
        }
        let event = try await bridge.waitForPublish("t2m/bridge/event", after: mark) { $0.json?["type"] == "integration_status" }
        #expect(
            event.json?["data"]
                == ["integration": "ble", "status": "offline", "reason": "adapter_off", "detail": "hci0 is powered off"])
        let health = try await bridge.request("health_check")
        #expect(health["data"]?["healthy"] == false)
        #expect(health["data"]?["integrations"]?["ble"] == "offline")
        await bridge.stop()
    }

    @Test("the status sensor's options are the generic states, whichever families there are")
    func statusOptions() {
        #expect(IntegrationStatus.State.allCases.map(\.rawValue) == ["disabled", "starting", "running", "offline", "unauthorized", "error"])
    }
}
