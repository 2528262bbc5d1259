public import BridgeCore

/// A bridge's retained presence at `<cluster>/bridges/<id>`: online with the epoch of its start, or offline (its will).
public struct Presence: Sendable, Equatable {
    public var online: Bool
    /// Milliseconds since 1970 when the bridge started: tells one run of a bridge id from the next.
    public var epoch: Int64
    public var room: String?
    /// Connections the bridge can still open (nil: its radios set no limit). With none free, it scores lower for
    /// a device it would have to connect.
    public var slots: Int?
    /// The radios the bridge listens with (BLE adapters such as `hci0`), for whoever looks at the cluster.
    public var adapters: [String]

    /// Creates a presence.
    public init(online: Bool, epoch: Int64, room: String? = nil, slots: Int? = nil, adapters: [String] = []) {
        self.online = online
        self.epoch = epoch
        self.room = room
        self.slots = slots
        self.adapters = adapters
    }

    /// The payload.
    public var json: JSONValue {
        var fields: [String: JSONValue] = ["state": .string(online ? "online" : "offline"), "epoch": .number(Double(epoch))]
        if let room { fields["room"] = .string(room) }
        if let slots { fields["slots"] = .number(Double(slots)) }
        if online { fields["adapters"] = .array(adapters.map(JSONValue.string)) }
        return .object(fields)
    }

    /// Reads a payload; nil for anything else, a number out of its range too (the will carries `offline` and no
    /// epoch).
    public init?(_ json: JSONValue) {
        guard let state = json["state"]?.stringValue, state == "online" || state == "offline" else { return nil }
        online = state == "online"
        guard let epoch = ClusterLimits.optional(json["epoch"], in: ClusterLimits.epoch),
            let slots = ClusterLimits.optional(json["slots"], in: ClusterLimits.slots)
        else { return nil }
        self.epoch = epoch ?? 0
        self.slots = slots
        room = json["room"]?.stringValue
        // A peer's list is shown, never acted on: kept short.
        guard case .array(let names)? = json["adapters"] else {
            adapters = []
            return
        }
        adapters = names.prefix(16).compactMap(\.stringValue).map { String($0.prefix(64)) }
    }
}

/// Ownership of one device: a retained claim at `<cluster>/claims/<device id>`.
public struct Claim: Sendable, Equatable {
    public var owner: String
    /// Raised by every new owner: a fencing token, so a replaced owner's late messages lose.
    public var term: Int
    /// The owner's epoch when it claimed: a claim dies with that run of the owner.
    public var epoch: Int64
    /// The owner's shared signal when it claimed or renewed.
    public var score: Double
    /// The room the owner last placed the device in: a new owner starts from it.
    public var room: String?
    /// The previous owner, while it may still hold a connection to the device: the owner connects it only once
    /// that bridge wrote the claim again without this field (a peripheral takes one central at a time).
    public var release: String?
    /// A passed claim only: the device's settable state as the previous owner last published it (an object), so
    /// the new owner can go on from it. A fresh claim of an unclaimed device carries none.
    public var state: JSONValue?

    /// Creates a claim.
    public init(
        owner: String, term: Int, epoch: Int64, score: Double, room: String? = nil, release: String? = nil,
        state: JSONValue? = nil
    ) {
        self.owner = owner
        self.term = term
        self.epoch = epoch
        self.score = score
        self.room = room
        self.release = release
        self.state = state.flatMap(Self.carried)
    }

    /// The payload.
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "owner": .string(owner), "term": .number(Double(term)), "epoch": .number(Double(epoch)), "score": .number(score),
        ]
        if let room { fields["room"] = .string(room) }
        if let release { fields["release"] = .string(release) }
        if let state { fields["state"] = state }
        return .object(fields)
    }

    /// A state fit to carry: an object of at most `maxStateKeys` keys and `maxStateBytes` bytes as JSON; nil for
    /// anything else, as a peer may send anything and the claim is read by every bridge.
    public static func carried(_ state: JSONValue) -> JSONValue? {
        guard let object = state.objectValue, !object.isEmpty, object.count <= maxStateKeys,
            state.jsonBytes.count <= maxStateBytes
        else { return nil }
        return state
    }

    /// Keys a carried state may have: far more than a light's few.
    public static let maxStateKeys = 32
    /// Bytes a carried state may take as JSON: far below what a retained claim, read by every bridge, should weigh.
    public static let maxStateBytes = 2048

    /// Reads a payload; nil for anything malformed, a number out of its range too (a malformed `state` alone is
    /// left out).
    public init?(_ json: JSONValue) {
        guard let owner = json["owner"]?.stringValue, let term = json["term"]?.integer(in: ClusterLimits.term),
            let epoch = json["epoch"]?.integer(in: ClusterLimits.epoch),
            let score = ClusterLimits.optionalSignal(json["score"])
        else { return nil }
        self.init(
            owner: owner, term: term, epoch: epoch, score: score ?? -200, room: json["room"]?.stringValue,
            release: json["release"]?.stringValue, state: json["state"])
    }

    /// The fixed order that settles two live claims: term, then score, then owner id.
    public static func wins(_ lhs: Claim, over rhs: Claim) -> Bool {
        (lhs.term, lhs.score, lhs.owner) > (rhs.term, rhs.score, rhs.owner)
    }
}

/// The cluster's topics under one cluster topic.
public struct ClusterTopics: Sendable, Equatable {
    public let root: String

    /// Creates the layout.
    public init(root: String) { self.root = root }

    /// Presence of a bridge.
    public func presence(_ bridge: String) -> String { "\(root)/bridges/\(bridge)" }
    /// A bridge's start-up probe (never retained).
    public func probe(_ bridge: String) -> String { "\(root)/bridges/\(bridge)/probe" }
    /// A challenge to whichever other run uses this bridge id (never retained): only a live one answers it.
    public func challenge(_ bridge: String) -> String { "\(root)/bridges/\(bridge)/challenge" }
    /// A run's answer to a challenge under its bridge id (never retained).
    public func answer(_ bridge: String) -> String { "\(root)/bridges/\(bridge)/answer" }
    /// The claim of a device.
    public func claim(_ device: DeviceID) -> String { "\(root)/claims/\(device.rawValue)" }
    /// One bridge's shared signals, every device that was due in one message (never retained).
    public func observations(_ bridge: String) -> String { "\(root)/obs/\(bridge)" }
    /// One bridge's renewal of the claims it holds, all in one message (never retained).
    public func renewal(_ bridge: String) -> String { "\(root)/renew/\(bridge)" }
    /// Everything of the cluster, for the subscription.
    public var all: String { "\(root)/#" }

    /// What a topic under the root is about.
    public enum Subject: Sendable, Equatable {
        case presence(bridge: String)
        /// A bridge's start-up probe: once its own comes back, every retained presence has arrived before it.
        case probe(bridge: String)
        /// Another run under this id asks for proof that this one is live.
        case challenge(bridge: String)
        /// A run under this id answers this bridge's challenge.
        case answer(bridge: String)
        case claim(DeviceID)
        case observations(bridge: String)
        case renewal(bridge: String)
    }

    /// Parses a topic; nil outside the layout.
    public func subject(of topic: String) -> Subject? {
        guard topic.hasPrefix(root + "/") else { return nil }
        let levels = topic.dropFirst(root.count + 1).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch (levels.first, levels.count) {
        case ("bridges", 2): return .presence(bridge: levels[1])
        case ("bridges", 3) where levels[2] == "probe": return .probe(bridge: levels[1])
        case ("bridges", 3) where levels[2] == "challenge": return .challenge(bridge: levels[1])
        case ("bridges", 3) where levels[2] == "answer": return .answer(bridge: levels[1])
        case ("claims", 2): return DeviceID(levels[1]).map { .claim($0) }
        case ("obs", 2): return .observations(bridge: levels[1])
        case ("renew", 2): return .renewal(bridge: levels[1])
        default: return nil
        }
    }
}
