import BridgeCore
public import Logging
import Support

extension CodingUserInfoKey {
    /// Where the root decoder finds the registered families' sections.
    static let configFamilies = CodingUserInfoKey(rawValue: "things2mqtt.config.families")!
}

extension Configuration: Decodable {
    /// The sections every configuration has, before the families' own.
    static let commonKeys = ["mqtt", "homeassistant", "cluster", "frontend", "devices", "log_level"]

    /// Decodes the root mapping; each family's section is decoded by its own settings type.
    public init(from decoder: any Decoder) throws {
        let sections = decoder.userInfo[.configFamilies] as? [FamilySection] ?? []
        let collector = decoder.userInfo[.configIssues] as? IssueCollector ?? IssueCollector()
        let container = try decoder.container(keyedBy: AnyKey.self)
        let known = Self.commonKeys + sections.map(\.integration.rawValue)
        for key in container.allKeys where !known.contains(key.stringValue) {
            collector.add(
                [key.stringValue], "unknown key (expected one of: \(known.joined(separator: ", ")))", atKey: true)
        }
        func value<T: Decodable>(_ name: String, default fallback: T) -> T {
            do {
                return try container.decodeIfPresent(T.self, forKey: AnyKey(stringValue: name)) ?? fallback
            } catch {
                collector.add(error, at: [name])
                return fallback
            }
        }
        mqtt = value("mqtt", default: MQTTSettings())
        homeassistant = value("homeassistant", default: HomeAssistantSettings())
        cluster = value("cluster", default: nil)
        frontend = value("frontend", default: FrontendSettings())
        let rawDevices: [String: DeviceSettings] = value("devices", default: [:])
        let registered = Set(sections.map(\.integration))
        for (key, settings) in rawDevices {
            guard let id = DeviceID(key), registered.contains(id.integration) else {
                let forms = sections.map(\.idForm).joined(separator: ", ")
                collector.add(["devices", key], "\"\(key)\" is not a device id (expected \(forms))", atKey: true)
                continue
            }
            devices[id] = settings
        }
        if let level: String = value("log_level", default: nil) {
            if let parsed = Logger.Level(configName: level) {
                logLevel = parsed
            } else {
                collector.add(["log_level"], "\"\(level)\" is not a log level (trace, debug, info, notice, warning, error)")
            }
        }
        for section in sections { families.set(Self.decode(section.settings, from: container, collector: collector)) }
    }

    /// One family's section, or its defaults when absent or unreadable (the problem is recorded).
    private static func decode<S: FamilySettings>(
        _ type: S.Type, from container: KeyedDecodingContainer<AnyKey>, collector: IssueCollector
    ) -> S {
        do {
            return try container.decodeIfPresent(S.self, forKey: AnyKey(stringValue: S.integration.rawValue)) ?? S()
        } catch {
            collector.add(error, at: [S.integration.rawValue])
            return S()
        }
    }
}

extension Logger.Level {
    /// Parses a level as written in config files and requests (`warn` accepted for `warning`).
    public init?(configName: String) {
        let name = configName.lowercased()
        self.init(rawValue: name == "warn" ? "warning" : name)
    }
}

extension MQTTSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case server, baseTopic = "base_topic", clientID = "client_id", username, password
        case passwordFile = "password_file", keepalive, qos, version, tls
    }

    /// Decodes the `mqtt` section.
    public init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        server = reader.value(.server, default: server)
        baseTopic = reader.value(.baseTopic, default: baseTopic)
        clientID = reader.optional(.clientID)
        username = reader.optional(.username)
        password = reader.secret(.password, file: .passwordFile)
        passwordFile = reader.optional(.passwordFile)
        keepalive = reader.value(.keepalive, default: keepalive)
        qos = reader.value(.qos, default: qos)
        if let text: String = reader.optional(.version) {
            switch text {
            case "3.1.1", "4", "311": version = .v311
            case "5", "5.0": version = .v5
            default: reader.problem(.version, "\"\(text)\" is not a supported MQTT version (4 for 3.1.1, or 5)")
            }
        }
        tls = reader.optional(.tls)
    }
}

extension TLSSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case caFile = "ca_file", certFile = "cert_file", keyFile = "key_file", insecure
    }

    /// Decodes `mqtt.tls`.
    public init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        caFile = reader.optional(.caFile)
        certFile = reader.optional(.certFile)
        keyFile = reader.optional(.keyFile)
        insecure = reader.value(.insecure, default: false)
    }
}

extension HomeAssistantSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case enabled, discoveryPrefix = "discovery_prefix", statusTopic = "status_topic", legacy
    }

    /// Decodes the `homeassistant` section; `homeassistant: false` is short for `enabled: false`.
    public init(from decoder: any Decoder) throws {
        if let flag = try? decoder.singleValueContainer().decode(Bool.self) {
            enabled = flag
            return
        }
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        enabled = reader.value(.enabled, default: true)
        discoveryPrefix = reader.value(.discoveryPrefix, default: discoveryPrefix)
        statusTopic = reader.value(.statusTopic, default: statusTopic)
        legacy = reader.value(.legacy, default: false)
    }
}

extension DeviceSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case alias, retain, qos, homeassistant
    }

    /// Encodes the entry as it is written: `homeassistant` absent when inherited, `null` when disabled.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(alias, forKey: .alias)
        try container.encode(retain, forKey: .retain)
        try container.encodeIfPresent(qos, forKey: .qos)
        switch homeassistant {
        case .inherit: break
        case .disabled: try container.encodeNil(forKey: .homeassistant)
        case .overrides(let overrides): try container.encode(overrides, forKey: .homeassistant)
        }
    }

    /// Decodes one `devices` entry.
    public init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        alias = reader.optional(.alias)
        retain = reader.value(.retain, default: true)
        qos = reader.optional(.qos)
        if reader.container.contains(.homeassistant) {
            if (try? reader.container.decodeNil(forKey: .homeassistant)) == true {
                homeassistant = .disabled
            } else if let overrides: [String: JSONValue] = reader.optional(.homeassistant) {
                homeassistant = .overrides(overrides)
            }
        }
    }
}
