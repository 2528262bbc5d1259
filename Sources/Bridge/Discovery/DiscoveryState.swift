import BridgeConfig
import BridgeCore

/// What the bridge knows about retained discovery configs on the broker.
struct DiscoveryState {
    /// Configs seen on the broker at start-up that belong to this bridge, by topic.
    var collected: Set<String> = []
    /// Configs this bridge has published and not cleared, by topic.
    var published: [String: JSONValue] = [:]
    var windowOpen = true
    var completeIntegrations: Set<Integration> = []
}

/// Home Assistant discovery: publishing, clearing and start-up cleanup of stale configs.
extension BridgeService {
    func publishDiscovery(for record: DeviceRecord) {
        guard config.homeassistant.enabled else { return }
        let wanted = builder.deviceConfigs(record, qos: qos(for: record))
        let wantedTopics = Set(wanted.map(\.topic))
        for topic in builder.deviceTopics(record) where !wantedTopics.contains(topic) && discovery.published[topic] != nil {
            clearDiscoveryTopic(topic)
        }
        for message in wanted { publishDiscovery(message) }
    }

    func publishDiscovery(_ message: DiscoveryMessage) {
        guard discovery.published[message.topic] != message.payload else { return }
        discovery.published[message.topic] = message.payload
        publishJSON(message.topic, message.payload, retain: true, qos: 1)
    }

    func clearDiscovery(for record: DeviceRecord) {
        guard config.homeassistant.enabled else { return }
        for topic in builder.deviceTopics(record) { clearDiscoveryTopic(topic) }
    }

    func clearDiscoveryTopic(_ topic: String) {
        discovery.published[topic] = nil
        discovery.collected.remove(topic)
        clearRetained(topic)
    }

    /// Remembers retained configs of this bridge seen during the start-up window.
    func collectDiscovery(_ message: InboundMessage) {
        guard discovery.windowOpen, message.retained, !message.payload.isEmpty,
            let payload = JSONValue.parse(message.payload), belongsToThisBridge(payload)
        else { return }
        discovery.collected.insert(message.topic)
    }

    /// A config is ours when its availability includes our bridge state topic (as zigbee2mqtt decides).
    private func belongsToThisBridge(_ payload: JSONValue) -> Bool {
        let availability = payload["availability"] ?? payload["avty"]
        guard case .array(let entries) = availability else {
            return payload["state_topic"]?.stringValue == topics.bridgeState
        }
        return entries.contains { ($0["topic"] ?? $0["t"])?.stringValue == topics.bridgeState }
    }

    /// Clears collected configs no longer generated, once the owning integration has listed its devices.
    func cleanStaleDiscovery() {
        guard !discovery.windowOpen else { return }
        for topic in discovery.collected.sorted() where discovery.published[topic] == nil {
            let levels = topic.split(separator: "/")
            guard levels.count >= 4 else { continue }
            let node = String(levels[levels.count - 3])
            if let id = DeviceID(node) {
                let integration = id.integration
                let settled = drivers[integration] == nil || discovery.completeIntegrations.contains(integration)
                guard settled else { continue }
            }
            logger.info("Removing stale Home Assistant entity", metadata: ["mqtt.topic": "\(topic)"])
            clearDiscoveryTopic(topic)
        }
    }
}
