public import BridgeCore

extension Configuration {
    /// The configuration as JSON for `bridge/info`, with every secret replaced by `***`.
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
        return [
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
            "lifx": [
                "enabled": .bool(lifx.enabled), "token": secret(lifx.token), "api_url": .string(lifx.apiURL),
                "poll_interval": .string(lifx.pollInterval.description),
            ],
            "ble": [
                "enabled": .bool(ble.enabled), "adapter": ble.adapter.map(JSONValue.string) ?? .null,
                "away_after": .string(ble.awayAfter.description), "connect_rules": .number(Double(ble.connect.count)),
                "deny": .array(ble.deny.map(JSONValue.string)),
            ],
            "ev3": [
                "enabled": .bool(ev3.enabled),
                "discovery": [
                    "wifi": .bool(ev3.discovery.wifi), "beacon_port": .number(Double(ev3.discovery.beaconPort)),
                    "usb": .bool(ev3.discovery.usb),
                ],
                "bricks": .array(ev3.bricks.map { .string($0.connection.description) }),
                "poll_interval": .string(ev3.pollInterval.description),
                "reply_timeout": ev3.replyTimeout.map { .string($0.description) } ?? .null,
            ],
        ]
    }
}
