// The standard library's NFD view (what Foundation's own Unicode code uses), for folding diacritics.
@_spi(_Unicode) import Swift
import BridgeConfig
import BridgeCore
import FoundationEssentials
import Support

/// One retained Home Assistant discovery config.
struct DiscoveryMessage: Equatable {
    var topic: String
    var payload: JSONValue
}

/// Builds Home Assistant discovery configs (per-component discovery, which every supported release reads).
struct DiscoveryBuilder {
    let topics: Topics
    let settings: HomeAssistantSettings
    /// The registered families: only their ids name devices in discovery topics.
    let integrations: Set<Integration>
    let version: String
    /// Where a device's page is, for Home Assistant's "Visit" link (`frontend.base_url`).
    var frontend = FrontendSettings()

    /// Node id of the bridge device, unique per base topic.
    var bridgeNodeID: String { "things2mqtt_bridge_" + Self.slug(topics.base) }
    /// The bridge device's identifier, which every device names as `via_device`.
    var bridgeIdentifier: String { bridgeNodeID }

    /// Node id of a device's configs: the base topic's slug before the id, so that two bridges seeing the
    /// same device (one LIFX account) never write, or clear, each other's configs.
    func nodeID(_ id: DeviceID) -> String { Self.slug(topics.base) + "_" + id.rawValue }

    /// Which device a discovery topic's node names: in this bridge's layout, or bare as before the base topic
    /// became part of it; nil for any other node (the bridge device, foreign configs).
    func node(ofTopic topic: String) -> DiscoveryNode? {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count >= 4 else { return nil }
        let node = String(levels[levels.count - 3])
        // The current layout is tried first: with a base topic like `lifx`, a node such as
        // `lifx_lifx_d073d5000001` would also pass for a bare id.
        let prefix = Self.slug(topics.base) + "_"
        if node.hasPrefix(prefix), let id = DeviceID(String(node.dropFirst(prefix.count))),
            integrations.contains(id.integration)
        {
            return .device(id)
        }
        return DeviceID(node).flatMap { integrations.contains($0.integration) ? .legacyDevice($0) : nil }
    }

    var origin: JSONValue {
        ["name": "things2mqtt", "sw_version": .string(version)]
    }

    /// The bridge's own device: its connectivity sensor and, per running integration, a status sensor.
    func bridgeConfigs(integrations: [Integration] = []) -> [DiscoveryMessage] {
        let device: JSONValue = [
            "identifiers": [.string(bridgeIdentifier)], "name": .string("things2mqtt bridge (\(topics.base))"),
            "manufacturer": "things2mqtt", "model": "Bridge", "sw_version": .string(version),
        ]
        let objectID = "connection_state"
        let entityID = "\(bridgeNodeID)_\(objectID)"
        let payload: JSONValue = [
            "name": "Connection state", "unique_id": .string("\(bridgeNodeID)_\(objectID)_\(topics.base)"),
            "default_entity_id": .string("binary_sensor.\(entityID)"), "object_id": .string(entityID),
            "state_topic": .string(topics.bridgeState), "value_template": "{{ value_json.state }}",
            "payload_on": "online", "payload_off": "offline", "device_class": "connectivity",
            "entity_category": "diagnostic", "device": device, "origin": origin,
        ]
        var messages = [DiscoveryMessage(topic: topic("binary_sensor", bridgeNodeID, objectID), payload: payload)]
        for integration in integrations {
            let name = integration.rawValue
            let objectID = "\(name)_status"
            let entityID = "\(bridgeNodeID)_\(objectID)"
            let status: JSONValue = [
                "name": .string("\(name.uppercased()) status"), "unique_id": .string("\(bridgeNodeID)_\(objectID)_\(topics.base)"),
                "default_entity_id": .string("sensor.\(entityID)"), "object_id": .string(entityID),
                "state_topic": .string(topics.bridgeInfo), "value_template": .string("{{ value_json.integrations.\(name).status }}"),
                "json_attributes_topic": .string(topics.bridgeInfo),
                "json_attributes_template": .string("{{ value_json.integrations.\(name) | tojson }}"),
                "device_class": "enum", "options": .array(IntegrationStatus.State.allCases.map { .string($0.rawValue) }),
                "entity_category": "diagnostic", "device": device, "origin": origin,
                "availability": [["topic": .string(topics.bridgeState), "value_template": "{{ value_json.state }}"]],
            ]
            messages.append(DiscoveryMessage(topic: topic("sensor", bridgeNodeID, objectID), payload: status))
        }
        return messages
    }

    /// Every entity of one device, with per-device overrides merged last.
    func deviceConfigs(_ record: DeviceRecord, qos: Int) -> [DiscoveryMessage] {
        if case .disabled = record.settings.homeassistant { return [] }
        let overrides: [String: JSONValue]
        if case .overrides(let values) = record.settings.homeassistant { overrides = values } else { overrides = [:] }
        let leaves = record.descriptor.leaves
        let objectIDs = Set(leaves.map(\.objectID))
        return leaves.compactMap { leaf in
            guard let (component, specific) = EntityShapes(topics: topics, legacy: settings.legacy)
                .entity(for: leaf, alias: record.alias)
            else { return nil }
            var payload = common(record, leaf: leaf, component: component, qos: qos).merging(overlay: specific)
            for (key, value) in overrides where !objectIDs.contains(key) { payload = payload.merging(overlay: [key: value]) }
            if let specificOverride = overrides[leaf.objectID]?.objectValue {
                payload = payload.merging(overlay: specificOverride)
            }
            return DiscoveryMessage(topic: topic(component, nodeID(record.id), leaf.objectID), payload: .object(payload))
        }
    }

    /// The discovery topics a device's configs use, whether or not discovery is enabled for it.
    func deviceTopics(_ record: DeviceRecord) -> [String] {
        record.descriptor.leaves.compactMap { leaf in
            EntityShapes(topics: topics, legacy: settings.legacy).entity(for: leaf, alias: record.alias).map {
                topic($0.0, nodeID(record.id), leaf.objectID)
            }
        }
    }

    func topic(_ component: String, _ node: String, _ objectID: String) -> String {
        "\(settings.discoveryPrefix)/\(component)/\(node)/\(objectID)/config"
    }

    private func common(_ record: DeviceRecord, leaf: ExposeLeaf, component: String, qos: Int) -> [String: JSONValue] {
        let expose = leaf.expose
        let objectID = entitySlug(record, leaf)
        var payload: [String: JSONValue] = [
            "unique_id": .string("\(record.id.rawValue)_\(leaf.objectID)_\(topics.base)"),
            "name": leaf.name.map(JSONValue.string) ?? .null,
            "default_entity_id": .string("\(component).\(objectID)"),
            "object_id": .string(objectID),
            "device": device(record),
            "origin": origin,
            "availability": [
                ["topic": .string(topics.bridgeState), "value_template": "{{ value_json.state }}"],
                ["topic": .string(topics.availability(record.alias)), "value_template": "{{ value_json.state }}"],
            ],
            "availability_mode": "all",
            "qos": .number(Double(qos)),
        ]
        if let category = expose.category { payload["entity_category"] = .string(category.rawValue) }
        if let icon = expose.icon { payload["icon"] = .string(icon) }
        if !expose.enabledByDefault { payload["enabled_by_default"] = false }
        return payload
    }

    /// The entity id Home Assistant gives a new entity: the device's name for its main feature, the name
    /// plus the object id for the others, and a scene's own name for a scene (`scene.evening`).
    private func entitySlug(_ record: DeviceRecord, _ leaf: ExposeLeaf) -> String {
        let device = Self.entitySlug(record.homeAssistantName, fallback: record.id.rawValue)
        switch leaf.name {
        case nil: return device
        case let name? where leaf.expose.kind == .scene:
            return Self.entitySlug(name, fallback: device + "_" + leaf.objectID)
        case _?: return device + "_" + Self.slug(leaf.objectID)
        }
    }

    private func device(_ record: DeviceRecord) -> JSONValue {
        let descriptor = record.descriptor
        var device: [String: JSONValue] = [
            "identifiers": [.string("things2mqtt_\(record.id.rawValue)")], "name": .string(record.homeAssistantName),
            "manufacturer": .string(descriptor.manufacturer), "model": .string(descriptor.model),
            "via_device": .string(bridgeIdentifier),
        ]
        if let version = descriptor.softwareVersion { device["sw_version"] = .string(version) }
        if let url = frontend.devicePageURL(record.id.rawValue) { device["configuration_url"] = .string(url) }
        if let version = descriptor.hardwareVersion { device["hw_version"] = .string(version) }
        if !descriptor.connections.isEmpty {
            device["connections"] = .array(descriptor.connections.map { .array($0.map(JSONValue.string)) })
        }
        if !settings.legacy {
            if let modelID = descriptor.modelID { device["model_id"] = .string(modelID) }
            if let serial = descriptor.serialNumber { device["serial_number"] = .string(serial) }
        }
        return .object(device)
    }

    /// Lowercase letters, digits and single underscores: safe in topics and entity ids.
    static func slug(_ text: String) -> String {
        let result = bareSlug(text)
        return result.isEmpty ? "device" : result
    }

    /// A name as an entity id, accents dropped as Home Assistant does ("Küche" → `kuche`); `fallback` when
    /// nothing usable is left (a name in another script).
    static func entitySlug(_ name: String, fallback: String) -> String {
        let result = bareSlug(withoutDiacritics(name))
        return result.isEmpty ? slug(fallback) : result
    }

    /// The text decomposed (NFD) without its combining marks: "Küche" → "Kuche", as Foundation's diacritic
    /// folding gives it, without Foundation.
    static func withoutDiacritics(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text._nfd where scalar.properties.canonicalCombiningClass == .notReordered { kept.append(scalar) }
        return String(kept)
    }

    private static func bareSlug(_ text: String) -> String {
        var result = ""
        for character in text.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                result.append(character)
            } else if !result.hasSuffix("_") {
                result.append("_")
            }
        }
        return result.trimming { $0 == "_" }
    }
}

/// What a discovery topic's node id says about the device it belongs to.
enum DiscoveryNode: Equatable {
    /// `<base topic slug>_<device id>`: the layout this bridge writes.
    case device(DeviceID)
    /// The bare device id, as written before the base topic became part of the node.
    case legacyDevice(DeviceID)
}
