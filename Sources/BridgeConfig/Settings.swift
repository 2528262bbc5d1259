public import BridgeCore
public import Logging

/// The whole configuration file, after defaults, interpolation and validation.
public struct Configuration: Sendable, Equatable {
    public var mqtt = MQTTSettings()
    public var homeassistant = HomeAssistantSettings()
    /// Several bridges of one home; nil: this bridge works alone.
    public var cluster: ClusterSettings?
    /// The web page the daemon serves.
    public var frontend = FrontendSettings()
    /// Per-device settings keyed by device id.
    public var devices: [DeviceID: DeviceSettings] = [:]
    public var logLevel: Logger.Level = .info
    /// The registered families' sections, each decoded by its family's own settings type.
    public var families = FamilySections()

    /// The registered families, in registration order.
    public var integrations: [Integration] { families.integrations }

    /// One family's section (its defaults when the family is not registered).
    public subscript<S: FamilySettings>(_ type: S.Type) -> S {
        get { families[type] }
        set { families[type] = newValue }
    }

    /// A configuration with every default.
    public init() {}

    /// The MQTT client id: `things2mqtt-<bridge_id>` in a cluster, so a broker's log says which bridge sent
    /// what; otherwise `mqtt.client_id` or its default.
    public var clientID: String {
        if let cluster, mqtt.clientID == nil { return "things2mqtt-" + cluster.bridgeID }
        return mqtt.effectiveClientID
    }

    /// Why `alias` cannot name `device` under this configuration (the alias rules, and no topic inside the
    /// cluster's), or nil if it can. The default cluster topic is kept free also while no cluster is configured,
    /// so that adding one later finds no device inside it.
    public func aliasProblem(_ alias: String, for device: DeviceID) -> String? {
        let base = mqtt.baseTopic
        let reserved = Set([ClusterSettings.defaultTopic(base: base)] + (cluster.map { [$0.clusterTopic(base: base)] } ?? []))
        return AliasRules.problem(with: alias, for: device, topics: Topics(base: base), reserved: reserved.sorted())
    }
}

/// The `mqtt` section.
public struct MQTTSettings: Sendable, Equatable, Encodable {
    /// `mqtt://host[:port]` or `mqtts://host[:port]`.
    public var server = "mqtt://localhost:1883"
    public var baseTopic = "things2mqtt"
    /// Defaults to `things2mqtt_<base topic>` so several bridges on one broker never kick each other off.
    public var clientID: String?
    public var username: String?
    /// The password, read from `password` or `password_file`.
    public var password: Secret?
    public var passwordFile: String?
    public var keepalive = ConfigDuration.seconds(60)
    /// QoS for device state and commands.
    public var qos = 1
    public var version = MQTTVersion.v311
    public var tls: TLSSettings?

    /// Creates the defaults.
    public init() {}

    /// The host part of `server`.
    public var host: String { ServerURL(server)?.host ?? "localhost" }
    /// The port of `server`, defaulting to 1883 or 8883.
    public var port: Int { ServerURL(server)?.port ?? 1883 }
    /// Whether `server` asks for TLS.
    public var usesTLS: Bool { ServerURL(server)?.secure ?? false }
    /// The client id actually used alone (in a cluster, `Configuration.clientID` names the bridge).
    public var effectiveClientID: String {
        clientID ?? "things2mqtt_" + String(baseTopic.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}

/// MQTT protocol versions.
public enum MQTTVersion: String, Sendable, Equatable, Encodable {
    case v311 = "3.1.1"
    case v5 = "5"
}

/// The `mqtt.tls` section.
public struct TLSSettings: Sendable, Equatable, Encodable {
    public var caFile: String?
    public var certFile: String?
    public var keyFile: String?
    /// Turns off certificate and host name verification.
    public var insecure = false
    /// Creates the defaults.
    public init() {}
}

/// The `homeassistant` section.
public struct HomeAssistantSettings: Sendable, Equatable, Encodable {
    public var enabled = true
    public var discoveryPrefix = "homeassistant"
    public var statusTopic = "homeassistant/status"
    /// Emit payloads that Home Assistant releases before 2024.4 accept too.
    public var legacy = false
    /// Creates the defaults.
    public init() {}
}

/// One entry of the `devices` map.
public struct DeviceSettings: Sendable, Equatable, Encodable {
    public var alias: String?
    public var retain = true
    /// Overrides `mqtt.qos` for this device.
    public var qos: Int?
    public var homeassistant = HomeAssistantOverride.inherit
    /// Creates the defaults.
    public init() {}
}

/// Per-device Home Assistant discovery choice.
public enum HomeAssistantOverride: Sendable, Equatable {
    /// Discover with the generated payloads.
    case inherit
    /// `homeassistant: null`: no discovery for this device.
    case disabled
    /// Keys merged into the generated payloads: top-level keys into every entity, keys named after an
    /// entity's object id into that entity only.
    case overrides([String: JSONValue])
}
