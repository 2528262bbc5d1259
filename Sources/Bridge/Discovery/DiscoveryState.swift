import BridgeConfig
import BridgeCore

/// What the bridge knows about retained discovery configs on the broker.
struct DiscoveryState {
    /// Configs seen on the broker at start-up that belong to this bridge, by topic.
    var collected: Set<String> = []
    /// Configs this bridge has published and not cleared: topic → a hash of the payload's bytes. A hash, not
    /// the payload: with a thousand devices the configs as JSON trees cost megabytes, and the only question
    /// asked of them is "has this config changed?".
    var published: [String: Int] = [:]
    var windowOpen = true
    var completeIntegrations: Set<Integration> = []
    /// Devices whose configs may not be published before the given time, because Home Assistant is still
    /// removing an entity with the same `unique_id` under the old topic layout.
    var heldUntil: [DeviceID: ContinuousClock.Instant] = [:]
}

/// Home Assistant discovery: publishing, clearing and start-up cleanup of stale configs.
extension BridgeService {
    /// Publishes a device's configs; those its exposes no longer have (also those of `previous`, the device as
    /// it was before its descriptor changed) are cleared.
    func publishDiscovery(for record: DeviceRecord, previous: DeviceRecord? = nil) {
        guard config.homeassistant.enabled, publishes(record.id) else { return }
        // A held device is published by the `.rediscover` timer scheduled with the hold.
        if let until = discovery.heldUntil[record.id] {
            guard ContinuousClock.now >= until else { return }
            discovery.heldUntil[record.id] = nil
        }
        let wanted = builder.deviceConfigs(record, qos: qos(for: record))
        let wantedTopics = Set(wanted.map(\.topic))
        let known = builder.deviceTopics(record) + (previous.map(builder.deviceTopics) ?? [])
        for topic in known where !wantedTopics.contains(topic) && discovery.published[topic] != nil {
            clearDiscoveryTopic(topic)
        }
        for message in wanted { publishDiscovery(message) }
    }

    func publishDiscovery(_ message: DiscoveryMessage) {
        let bytes = message.payload.jsonBytes
        var hasher = Hasher()
        hasher.combine(bytes)
        let digest = hasher.finalize()
        guard discovery.published[message.topic] != digest else { return }
        discovery.published[message.topic] = digest
        send(message.topic, payload: bytes, qos: 1, retain: true)
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

    /// Remembers retained configs of this bridge seen during the start-up window; moves those in the old
    /// topic layout to the current one.
    func collectDiscovery(_ message: InboundMessage) {
        guard discovery.windowOpen, message.retained, !message.payload.isEmpty,
            let payload = JSONValue.parse(message.payload), belongsToThisBridge(payload)
        else { return }
        if case .legacyDevice(let id) = builder.node(ofTopic: message.topic) {
            migrateLegacyDiscovery(message.topic, of: id)
            return
        }
        discovery.collected.insert(message.topic)
    }

    /// Clears a config of ours at its old topic and re-creates the device's configs at the new ones after a
    /// pause. Home Assistant ignores a config whose `unique_id` another entity still holds, and removes the
    /// old entity asynchronously, so the new config must come after the clear, and late enough.
    private func migrateLegacyDiscovery(_ topic: String, of id: DeviceID) {
        logger.info(
            "Moving Home Assistant entity to this bridge's discovery topics",
            metadata: ["mqtt.topic": "\(topic)", "device.id": "\(id)"])
        clearRetained(topic)
        if let record = devices[id] {
            // Published before the old config showed up, so Home Assistant has ignored them: clear them too,
            // so that the re-publication below is new to it.
            for current in builder.deviceTopics(record) where discovery.published[current] != nil {
                clearDiscoveryTopic(current)
            }
        }
        discovery.heldUntil[id] = ContinuousClock.now + options.rediscoverDelay
        schedule(.rediscover(id), after: options.rediscoverDelay)
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
            if case .device(let id) = builder.node(ofTopic: topic) {
                let integration = id.integration
                let settled = drivers[integration] == nil || discovery.completeIntegrations.contains(integration)
                guard settled else { continue }
            }
            logger.info("Removing stale Home Assistant entity", metadata: ["mqtt.topic": "\(topic)"])
            clearDiscoveryTopic(topic)
        }
    }
}
