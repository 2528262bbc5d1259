public import BridgeConfig
public import BridgeCore

extension EV3Settings: FamilySettings {
    /// The family the section configures.
    public static let integration = Integration.ev3

    enum CodingKeys: String, CodingKey, CaseIterable {
        case enabled, discovery, bricks, pollInterval = "poll_interval", replyTimeout = "reply_timeout"
    }

    /// Decodes the `ev3` section; every brick entry is checked where it is written.
    public init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        enabled = reader.value(.enabled, default: false)
        discovery = reader.value(.discovery, default: EV3DiscoverySettings())
        pollInterval = reader.value(.pollInterval, default: pollInterval)
        if pollInterval < ConfigDuration(milliseconds: 100) { reader.problem(.pollInterval, "must be at least 100ms") }
        replyTimeout = reader.optional(.replyTimeout)
        if let replyTimeout, !(ConfigDuration(milliseconds: 100)...ConfigDuration(milliseconds: 30_000)).contains(replyTimeout) {
            reader.problem(.replyTimeout, "must be 100ms to 30s")
        }
        let entries: [EV3BrickEntry] = reader.value(.bricks, default: [])
        var connections: [EV3Connection: Int] = [:]
        var serials: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            guard let brick = entry.brick else { continue }
            let path = reader.path + ["bricks", "Index \(index)"]
            if let first = connections[brick.connection] {
                reader.collector.add(path + [entry.connectionKey], "the same brick as bricks[\(first)]")
            } else if let serial = brick.serialNumber, let first = serials[serial] {
                reader.collector.add(path + ["serial_number"], "\(serial) is already the serial number of bricks[\(first)]")
            }
            connections[brick.connection] = connections[brick.connection] ?? index
            if let serial = brick.serialNumber { serials[serial] = serials[serial] ?? index }
            bricks.append(brick)
        }
    }
}

extension EV3Settings {
    private enum InfoKeys: String, CodingKey { case enabled, discovery, bricks, pollInterval = "poll_interval", replyTimeout = "reply_timeout" }

    /// The section for `bridge/info`: bricks as their connections, discovery as written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: InfoKeys.self)
        try container.encode(enabled, forKey: .enabled)
        try container.encode(discovery, forKey: .discovery)
        try container.encode(bricks.map(\.connection.description), forKey: .bricks)
        try container.encode(pollInterval, forKey: .pollInterval)
        try container.encode(replyTimeout, forKey: .replyTimeout)
    }
}

extension Configuration {
    /// The `ev3` section.
    public var ev3: EV3Settings {
        get { self[EV3Settings.self] }
        set { self[EV3Settings.self] = newValue }
    }
}

extension EV3DiscoverySettings: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case wifi, beaconPort = "beacon_port", usb
    }

    /// Decodes `ev3.discovery`.
    public init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        wifi = reader.value(.wifi, default: true)
        beaconPort = reader.value(.beaconPort, default: 3015)
        if !(1...65535).contains(beaconPort) { reader.problem(.beaconPort, "must be a UDP port, 1 to 65535") }
        usb = reader.value(.usb, default: true)
    }

    /// Encodes the keys as written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(wifi, forKey: .wifi)
        try container.encode(beaconPort, forKey: .beaconPort)
        try container.encode(usb, forKey: .usb)
    }
}
