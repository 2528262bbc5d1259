import BridgeConfig
import BridgeCore
import FoundationEssentials
import Support

/// The publish path: every retained topic and event leaves the bridge through these.
extension BridgeService {
    func publishJSON(_ topic: String, _ value: JSONValue, retain: Bool, qos: Int) {
        send(topic, payload: value.jsonBytes, qos: qos, retain: retain)
    }

    func clearRetained(_ topic: String) {
        send(topic, payload: [], qos: 1, retain: true)
    }

    /// The one place a message leaves the bridge: to the broker, and to the tap's readers in this process.
    func send(_ topic: String, payload: [UInt8], qos: Int, retain: Bool) {
        transport.publish(topic, payload: payload, qos: qos, retain: retain)
        options.publishTap?.record(topic: topic, payload: payload, retain: retain)
    }

    /// `bridge/event`: not retained.
    func publishEvent(_ type: String, _ data: [String: JSONValue]) {
        publishJSON(topics.bridgeEvent, ["type": .string(type), "data": .object(data)], retain: false, qos: 1)
    }

    func qos(for record: DeviceRecord) -> Int { record.settings.qos ?? config.mqtt.qos }

    /// Publishes a device's state, adapted for Home Assistant (mireds in legacy mode).
    func publishState(_ record: DeviceRecord) {
        guard !record.state.isEmpty, publishes(record.id) else { return }
        // Home Assistant's JSON light reads `state` from every message (2024.1 raises on one without it): a
        // light's state waits until its driver has said whether it is on.
        if record.state["state"] == nil, record.descriptor.exposes.contains(where: { $0.kind == .light }) { return }
        // While the broker is behind, a state waits (its later changes merge into it) instead of queueing
        // behind the messages it has not taken yet; a burst of adverts then costs the broker fewer messages. The
        // transport's `.caughtUp` lets it go as soon as the broker has taken half; the retry is for a transport
        // that never says so.
        if transport.isBacklogged {
            if held.hold(record.id) { schedule(.flushHeldStates, after: options.heldStateRetry) }
            return
        }
        held.release(record.id)
        var state = record.state
        if config.homeassistant.legacy, let kelvin = state["color_temp"]?.doubleValue, kelvin >= 1000 {
            state["color_temp"] = .number((1_000_000 / kelvin).rounded())
        }
        publishJSON(topics.state(record.alias), .object(state), retain: record.settings.retain, qos: qos(for: record))
        noteCarried(record)
    }

    /// Publishes the states held while the broker was behind, oldest first (any that find it behind again wait
    /// once more).
    func flushHeldStates() {
        for id in held.takeAll() { if let record = devices[id] { publishState(record) } }
    }

    func publishAvailability(_ record: DeviceRecord) {
        guard let online = record.status?.isOnline, publishes(record.id) else { return }
        publishJSON(topics.availability(record.alias), ["state": .string(online ? "online" : "offline")], retain: true, qos: 1)
    }

    func publishDevices() {
        let list = devices.values.sorted { $0.id < $1.id }.map { $0.inventoryJSON(remembered: remembered.contains($0.id)) }
        publishJSON(topics.bridgeDevices, .array(list), retain: true, qos: 1)
    }

    func publishInfo() {
        var integrations: [String: JSONValue] = [:]
        for integration in knownIntegrations {
            let status = integrationStatus[integration] ?? IntegrationStatus(.disabled)
            var entry: [String: JSONValue] = status.figures
            entry["status"] = .string(status.state.rawValue)
            entry["reason"] = status.reason.map(JSONValue.string) ?? .null
            entry["detail"] = status.detail.map(JSONValue.string) ?? .null
            entry["devices"] = .number(Double(devices.keys.filter { $0.integration == integration }.count))
            integrations[integration.rawValue] = .object(entry)
        }
        let info: JSONValue = [
            "version": .string(options.version), "base_topic": .string(topics.base),
            "log_level": .string(logLevel.current.rawValue), "integrations": .object(integrations),
            "homeassistant": [
                "enabled": .bool(config.homeassistant.enabled),
                "discovery_prefix": .string(config.homeassistant.discoveryPrefix),
                "legacy": .bool(config.homeassistant.legacy),
            ],
            "restart_required": .bool(!restartRequired.isEmpty),
            "restart_required_for": .array(restartRequired.map(JSONValue.string)),
            "config": configInfo,
            "cluster": clusterInfo,
        ]
        publishJSON(topics.bridgeInfo, info, retain: true, qos: 1)
    }

    /// Coalesces `bridge/devices` and `bridge/info` updates from bursts of device events.
    func scheduleInventory() {
        guard !inventoryScheduled else { return }
        inventoryScheduled = true
        schedule(.flushInventory, after: options.inventoryDebounce)
    }

    /// Re-sends device states and availability after Home Assistant restarts.
    func republishAfterBirth() {
        logger.info("Home Assistant came online; re-publishing state", metadata: ["devices": "\(devices.count)"])
        publishJSON(topics.bridgeState, ["state": "online"], retain: true, qos: 1)
        for record in devices.values.sorted(by: { $0.id < $1.id }) {
            publishAvailability(record)
            publishState(record)
        }
    }

    func handleHomeAssistantStatus(_ payload: [UInt8]) {
        let text = String(decoding: payload, as: UTF8.self).trimmingWhitespace()
        guard text == "online" else { return }
        let delay = Double.random(in: options.birthDelay)
        schedule(.republishAfterBirth, after: .milliseconds(Int64(delay * 1000)))
    }
}
