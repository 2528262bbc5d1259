public import BridgeCore

extension Configuration {
    /// The configuration as JSON for `bridge/info`, with every secret replaced by `***`: the common sections
    /// here, the families' from their `Encodable` form.
    public var redactedJSON: JSONValue {
        func secret(_ value: String?) -> JSONValue { value == nil ? .null : "***" }
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        var devicesJSON: [String: JSONValue] = [:]
        for (id, settings) in devices {
            var entry: [String: JSONValue] = ["retain": .bool(settings.retain)]
            entry["alias"] = text(settings.alias)
            entry["qos"] = settings.qos.map { .number(Double($0)) } ?? .null
            switch settings.homeassistant {
            case .inherit: break
            case .disabled: entry["homeassistant"] = .null
            case .overrides(let overrides): entry["homeassistant"] = .object(overrides)
            }
            devicesJSON[id.rawValue] = .object(entry)
        }
        var tlsJSON: JSONValue = .null
        if let tls = mqtt.tls {
            tlsJSON = [
                "ca_file": text(tls.caFile), "cert_file": text(tls.certFile), "key_file": text(tls.keyFile),
                "insecure": .bool(tls.insecure),
            ]
        }
        var json: [String: JSONValue] = [
            "mqtt": [
                "server": .string(mqtt.server), "base_topic": .string(mqtt.baseTopic),
                "client_id": .string(mqtt.effectiveClientID), "username": text(mqtt.username),
                "password": secret(mqtt.password), "keepalive": .string(mqtt.keepalive.description),
                "qos": .number(Double(mqtt.qos)), "version": .string(mqtt.version.rawValue), "tls": tlsJSON,
            ],
            "homeassistant": [
                "enabled": .bool(homeassistant.enabled), "discovery_prefix": .string(homeassistant.discoveryPrefix),
                "status_topic": .string(homeassistant.statusTopic), "legacy": .bool(homeassistant.legacy),
            ],
            "devices": .object(devicesJSON),
            "log_level": .string(logLevel.rawValue),
        ]
        // Each family's section as it encodes: a field marked `Secret` can only encode as `***`.
        for integration in integrations { json[integration.rawValue] = families[integration]?.infoJSON ?? .null }
        return .object(json)
    }
}
