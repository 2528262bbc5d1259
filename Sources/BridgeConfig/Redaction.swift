public import BridgeCore
import FoundationEssentials

extension Configuration {
    /// The configuration as JSON for `bridge/info`: every section as it encodes, so a field typed `Secret`
    /// reads `***` in the common sections and the families' alike, and no list of secret keys is kept.
    public var redactedJSON: JSONValue {
        var devicesJSON: [String: JSONValue] = [:]
        for (id, settings) in devices { devicesJSON[id.rawValue] = Self.encoded(settings) }
        var json: [String: JSONValue] = [
            "mqtt": Self.encoded(mqtt).setting("client_id", to: .string(clientID)),
            "homeassistant": Self.encoded(homeassistant),
            "cluster": cluster.map { Self.encoded($0) } ?? .null,
            "frontend": Self.encoded(frontend),
            "devices": .object(devicesJSON),
            "log_level": .string(logLevel.rawValue),
        ]
        for integration in integrations { json[integration.rawValue] = families[integration]?.infoJSON ?? .null }
        return .object(json)
    }

    /// A section's `Encodable` form as JSON (null if it cannot encode, which would show rather than leak).
    static func encoded(_ section: some Encodable) -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(section), let json = JSONValue.parse(Array(data)) else { return .null }
        return json
    }
}

extension JSONValue {
    /// The object with `key` set to `value` (other values unchanged): `bridge/info` shows the client id in
    /// use, which defaults from the base topic, rather than the one configured.
    fileprivate func setting(_ key: String, to value: JSONValue) -> JSONValue {
        guard case .object(var fields) = self else { return self }
        fields[key] = value
        return .object(fields)
    }
}
