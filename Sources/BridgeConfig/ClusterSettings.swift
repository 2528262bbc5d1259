import Glibc

/// The `cluster` section: several bridges of one home on one broker (or a bridged pair), each device published
/// by the one bridge that owns it. Absent, the bridge works alone, as it always has.
public struct ClusterSettings: Sendable, Equatable, Encodable {
    /// This bridge's id: its presence topic, its API under `bridge/<id>/` and its MQTT client id.
    public var bridgeID: String
    /// The room this bridge's radio is in (room presence names it).
    public var room: String?
    /// Where presence, claims and observations go; nil: `<base>/_cluster`.
    public var topic: String?
    /// Added to every RSSI this bridge shares, so radios of different sensitivity compare fairly.
    public var rxOffsetDB = 0.0
    public var renewalInterval = ConfigDuration.seconds(10)
    public var claimTimeout = ConfigDuration.seconds(30)
    public var observationInterval = ConfigDuration.seconds(2)
    public var handoverWindow = ConfigDuration.seconds(2)
    public var awayAfter = ConfigDuration.seconds(60)
    /// The key every cluster message is authenticated with (HMAC-SHA256), read from `secret` or `secret_file`;
    /// nil: messages go unauthenticated, as before the option.
    public var secret: Secret?
    public var secretFile: String?

    /// The defaults, with the host name as bridge id.
    public init(bridgeID: String = ClusterSettings.hostBridgeID) { self.bridgeID = bridgeID }

    /// The fewest characters a `secret` may have: a short one is guessed from one recorded message.
    public static let shortestSecret = 16

    /// The cluster topic under `base` unless one is configured.
    public func clusterTopic(base: String) -> String { topic ?? Self.defaultTopic(base: base) }

    /// The cluster topic when none is configured: `<base>/_cluster`.
    public static func defaultTopic(base: String) -> String { base + "/_cluster" }

    /// The host name, reduced to letters, digits, `-` and `_` (a topic level and a client id both take it).
    public static var hostBridgeID: String {
        var buffer = [CChar](repeating: 0, count: 256)
        let name =
            gethostname(&buffer, buffer.count) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "bridge"
        let cleaned = String(name.split(separator: ".").first ?? "bridge").map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
        return cleaned.isEmpty ? "bridge" : String(cleaned)
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case bridgeID = "bridge_id", room, topic, rxOffsetDB = "rx_offset_db", renewalInterval = "renewal_interval"
        case claimTimeout = "claim_timeout", observationInterval = "observation_interval"
        case handoverWindow = "handover_window", awayAfter = "away_after", secret, secretFile = "secret_file"
    }
}

extension ClusterSettings: Decodable {
    /// Decodes the section; ids and topics are checked so that they make one topic level each.
    public init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        self.init()
        bridgeID = reader.value(.bridgeID, default: bridgeID)
        if bridgeID.isEmpty || !bridgeID.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) {
            reader.problem(.bridgeID, "\"\(bridgeID)\" is not a bridge id (letters, digits, - and _)")
        }
        room = reader.optional(.room)
        topic = reader.optional(.topic)
        if let topic, topic.isEmpty || topic.contains(where: { $0 == "+" || $0 == "#" }) || topic.hasSuffix("/") {
            reader.problem(.topic, "\"\(topic)\" is not a topic for the cluster (no wildcards, no trailing /)")
        }
        rxOffsetDB = reader.value(.rxOffsetDB, default: 0.0)
        renewalInterval = reader.value(.renewalInterval, default: renewalInterval)
        claimTimeout = reader.value(.claimTimeout, default: claimTimeout)
        observationInterval = reader.value(.observationInterval, default: observationInterval)
        handoverWindow = reader.value(.handoverWindow, default: handoverWindow)
        awayAfter = reader.value(.awayAfter, default: awayAfter)
        secret = reader.secret(.secret, file: .secretFile)
        secretFile = reader.optional(.secretFile)
        if let secret, secret.value.utf8.count < Self.shortestSecret {
            reader.problem(.secret, "must be at least \(Self.shortestSecret) characters (a random one: openssl rand -hex 32)")
        }
        if claimTimeout <= renewalInterval {
            reader.problem(.claimTimeout, "must be longer than renewal_interval (\(renewalInterval)), or claims lapse between renewals")
        }
    }
}

/// Why a bridge of a cluster stopped itself (another live bridge has its id).
public struct ClusterStop: Error, CustomStringConvertible {
    /// What the user reads.
    public let description: String

    /// Creates the reason.
    public init(description: String) { self.description = description }
}
