/// The bridge's topic layout under one base topic.
public struct Topics: Sendable, Equatable {
    /// The base topic, e.g. `things2mqtt`.
    public let base: String
    /// The bridge's own API: `<base>/bridge`, or `<base>/bridge/<bridge id>` for a bridge in a cluster.
    public let bridge: String

    /// Creates the layout for a base topic; `bridgeID` moves the bridge's own API under `bridge/<bridgeID>/`.
    public init(base: String, bridgeID: String? = nil) {
        self.base = base
        bridge = bridgeID.map { "\(base)/bridge/\($0)" } ?? "\(base)/bridge"
    }

    public var bridgeState: String { "\(bridge)/state" }
    public var bridgeInfo: String { "\(bridge)/info" }
    public var bridgeDevices: String { "\(bridge)/devices" }
    public var bridgeEvent: String { "\(bridge)/event" }
    public var requestPrefix: String { "\(bridge)/request/" }
    /// The filter that brings the bridge its requests.
    public var requestFilter: String { requestPrefix + "#" }

    /// The filters that bring the bridge the commands for aliases of `levels` topic levels: `/set`, `/get` and
    /// their one-attribute forms. Not `<base>/#`: the broker would send every state the bridge publishes back
    /// to it, each echo costing the broker a delivery and both sides an acknowledgement at QoS 1.
    public func commandFilters(levels: Int) -> [String] {
        let prefix = base + "/" + String(repeating: "+/", count: max(levels, 1))
        return ["set", "set/+", "get", "get/+"].map { prefix + $0 }
    }

    /// Where the answer to a request goes.
    public func response(_ name: String) -> String { "\(bridge)/response/\(name)" }
    /// A device's retained state.
    public func state(_ alias: String) -> String { "\(base)/\(alias)" }
    /// A device's retained availability.
    public func availability(_ alias: String) -> String { "\(base)/\(alias)/availability" }
    /// A device's momentary events (button presses), one message per occurrence, never retained.
    public func event(_ alias: String) -> String { "\(base)/\(alias)/event" }
    /// A device's command topic.
    public func set(_ alias: String) -> String { "\(base)/\(alias)/set" }
    /// A device's command topic for one attribute.
    public func set(_ alias: String, attribute: String) -> String { "\(base)/\(alias)/set/\(attribute)" }
    /// A device's refresh topic.
    public func get(_ alias: String) -> String { "\(base)/\(alias)/get" }

    /// The request name for a topic under `bridge/request/`, if it is one.
    public func requestName(_ topic: String) -> String? {
        guard topic.hasPrefix(requestPrefix) else { return nil }
        let name = String(topic.dropFirst(requestPrefix.count))
        return name.isEmpty ? nil : name
    }

    /// Checks that a base topic is usable: no wildcards, no empty levels.
    public static func validateBase(_ base: String) -> String? {
        if base.isEmpty { return "must not be empty" }
        if base.contains(where: { $0 == "+" || $0 == "#" || $0 == "\0" }) { return "must not contain +, # or NUL" }
        if base.hasPrefix("/") || base.hasSuffix("/") || base.contains("//") {
            return "must not start or end with / or contain an empty level"
        }
        return nil
    }
}

/// Rules for device aliases, after zigbee2mqtt's friendly names.
public enum AliasRules {
    /// Topic levels an alias may not contain, because they would collide with device sub-topics.
    public static let reservedLevels: Set<String> = ["set", "get", "availability", "event"]

    /// Returns why an alias is unusable for `device`, or nil if it is fine. Device ids are every device's
    /// default alias, so an alias shaped like a device id is only allowed for that device itself.
    public static func problem(with alias: String, for device: DeviceID) -> String? {
        if let id = DeviceID(alias), id != device, id.isGeneratedShape {
            return "is the id of another device (\(id)); device ids are reserved as default aliases"
        }
        return problem(with: alias)
    }

    /// Returns why an alias is unusable because its topics would fall inside `reserved` (a topic the bridge uses
    /// for itself under the same base, such as the cluster's), or any rule above; nil if it is fine.
    public static func problem(with alias: String, for device: DeviceID, topics: Topics, reserved: [String]) -> String? {
        if let problem = problem(with: alias, for: device) { return problem }
        let state = topics.state(alias)
        for root in reserved where state == root || state.hasPrefix(root + "/") {
            return "must not fall inside \(root), which the bridge uses for itself"
        }
        return nil
    }

    /// The most topic levels an alias may have. Every level of an alias becomes a level of the bridge's command
    /// subscriptions, and brokers drop a client whose filter is too deep (mosquitto: 200 levels), so a rename
    /// past a small bound would take the bridge off the broker on every reconnect.
    public static let maxLevels = 8
    /// The most UTF-8 bytes an alias may have: it is part of every topic of the device and of its discovery ids.
    public static let maxBytes = 128

    /// Returns why an alias is unusable for any device, or nil if it is fine.
    public static func problem(with alias: String) -> String? {
        if alias.isEmpty { return "must not be empty" }
        if alias.utf8.count > maxBytes { return "must not be longer than \(maxBytes) bytes" }
        if alias.contains(where: { $0 == "+" || $0 == "#" }) { return "must not contain + or #" }
        if alias.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }) {
            return "must not contain NUL or control characters"
        }
        // Invisible characters (bidi overrides, zero-width joiners) make two aliases look alike, or one look
        // like another, in logs and Home Assistant.
        if alias.unicodeScalars.contains(where: { $0.properties.generalCategory == .format }) {
            return "must not contain invisible format characters"
        }
        if alias.hasPrefix("/") || alias.hasSuffix("/") { return "must not start or end with /" }
        let levels = alias.split(separator: "/", omittingEmptySubsequences: false)
        if levels.contains(where: \.isEmpty) { return "must not contain an empty level (//)" }
        if levels.count > maxLevels { return "must not have more than \(maxLevels) levels" }
        if levels.first == "bridge" { return "must not be or start with bridge" }
        if let level = levels.first(where: { reservedLevels.contains(String($0)) }) {
            return "must not contain the level \"\(level)\""
        }
        if levels.count > 1, let last = levels.last, last.allSatisfy(\.isNumber) {
            return "must not end with /<number>"
        }
        return nil
    }
}
