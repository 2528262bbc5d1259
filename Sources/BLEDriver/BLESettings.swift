public import BLEFormats
public import BLEModels
public import BridgeConfig
public import BridgeCore
public import Support

/// Bluetooth Low Energy through BlueZ: the `ble` section and the driver.
public enum BLEFamily: DeviceFamily {
    /// The family's device ids.
    public static let idForm = "ble_<mac>"

    /// Builds the driver; devices listed under `devices` are announced even before they are heard.
    public static func makeDriver(_ settings: BLESettings, context: DriverContext) -> (any DeviceDriver)? {
        BLEDriver(
            settings: settings, configured: context.configured, sink: context.sink, logger: context.logger,
            memory: context.memory, shared: context.shared)
    }
}

/// The `ble` section.
public struct BLESettings: FamilySettings {
    /// The family the section configures.
    public static let integration = Integration.ble
    public var enabled = false
    /// The adapter to use (`hci0`); nil picks the first powered adapter with the central role.
    public var adapter: String?
    /// A device not heard from for this long, and not connected, becomes unavailable.
    public var awayAfter = ConfigDuration.seconds(60)
    /// How many connections the adapter holds at once (connecting ones included); nil sets no limit. In a
    /// cluster, a bridge with none free scores lower for a device it would have to connect.
    public var maxConnections: Int?
    /// Auto-connect rules, in order; the first that matches a device decides.
    public var connect: [ConnectRule] = []
    /// Addresses never connected (normalised `AA:BB:CC:DD:EE:FF`).
    public var deny: [String] = []
    /// The advert formats that make a passive sensor appear, each once, in the order written.
    public var passive: [PassiveFormat] = PassiveFormat.defaults
    /// The most devices admitted as passive sensors without a permit window (adverts anyone can forge).
    public var maxPassiveDevices = 256
    /// How many new passive sensors may appear at once without a permit window.
    public var passiveBurst = 50
    /// How many more new passive sensors may appear per minute once the burst is spent.
    public var passivePerMinute = 10
    /// A device's state is published at least this often while its adverts keep coming.
    public var stateInterval = ConfigDuration.seconds(60)
    /// A change of RSSI alone publishes a device's state at most this often.
    public var rssiInterval = ConfigDuration.seconds(60)
    /// Keys for encrypted adverts (MiBeacon, BTHome), by device address; they print as `***`.
    public var bindkeys: [BluetoothAddress: BindKey] = [:]
    /// Layouts described in the config, read like the built-in formats.
    public var formats: [UserFormat] = []

    /// Keys and described formats are taken live on reload; every other change needs a restart.
    public func needsRestart(from old: BLESettings) -> Bool {
        var rest = self
        rest.bindkeys = old.bindkeys
        rest.formats = old.formats
        return rest != old
    }

    /// The rules and the deny list as the connect policy takes them.
    public var rules: ConnectRules { ConnectRules(rules: connect, deny: deny) }
    /// Creates the defaults.
    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case enabled, adapter, awayAfter = "away_after", connect, deny, passive, stateInterval = "state_interval"
        case rssiInterval = "rssi_interval", bindkeys, bindkeysFile = "bindkeys_file", formats
        case maxConnections = "max_connections", maxPassiveDevices = "max_passive_devices"
        case passiveBurst = "passive_burst", passivePerMinute = "passive_per_minute"
    }

    private enum InfoKeys: String, CodingKey {
        case enabled, adapter, awayAfter = "away_after", connectRules = "connect_rules", deny, bindkeys, formats
        case maxConnections = "max_connections", maxPassiveDevices = "max_passive_devices"
        case passiveBurst = "passive_burst", passivePerMinute = "passive_per_minute"
    }

    /// Decodes the `ble` section.
    public init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        enabled = reader.value(.enabled, default: false)
        adapter = reader.optional(.adapter)
        awayAfter = reader.value(.awayAfter, default: awayAfter)
        if awayAfter < .seconds(1) { reader.problem(.awayAfter, "must be at least 1s") }
        maxConnections = reader.optional(.maxConnections)
        if let maxConnections, maxConnections < 1 { reader.problem(.maxConnections, "must be at least 1") }
        let rules: [ConfigRule] = reader.value(.connect, default: [])
        connect = rules.compactMap(\.rule)
        let addresses: [String] = reader.value(.deny, default: [])
        for (index, text) in addresses.enumerated() {
            do throws(BluetoothAddressError) {
                deny.append(try BluetoothAddress(text).description)
            } catch {
                reader.collector.add(reader.path + ["deny", "Index \(index)"], error.description)
            }
        }
        passive = Self.passiveFormats(reader)
        maxPassiveDevices = reader.value(.maxPassiveDevices, default: maxPassiveDevices)
        if !(0...4096).contains(maxPassiveDevices) { reader.problem(.maxPassiveDevices, "must be 0 to 4096") }
        passiveBurst = reader.value(.passiveBurst, default: passiveBurst)
        if !(0...1000).contains(passiveBurst) { reader.problem(.passiveBurst, "must be 0 to 1000") }
        passivePerMinute = reader.value(.passivePerMinute, default: passivePerMinute)
        if !(0...600).contains(passivePerMinute) { reader.problem(.passivePerMinute, "must be 0 to 600") }
        stateInterval = reader.value(.stateInterval, default: stateInterval)
        if stateInterval < .seconds(1) { reader.problem(.stateInterval, "must be at least 1s") }
        // 0s publishes every reading: live signal at the cost of one publish per advert.
        rssiInterval = reader.value(.rssiInterval, default: rssiInterval)
        bindkeys = Self.bindkeys(reader)
        let described: [ConfigFormat] = reader.value(.formats, default: [])
        formats = described.compactMap(\.format)
    }

    /// The section for `bridge/info`: the rules counted, not listed.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: InfoKeys.self)
        try container.encode(enabled, forKey: .enabled)
        try container.encode(adapter, forKey: .adapter)
        try container.encode(awayAfter, forKey: .awayAfter)
        try container.encode(maxConnections, forKey: .maxConnections)
        try container.encode(maxPassiveDevices, forKey: .maxPassiveDevices)
        try container.encode(passiveBurst, forKey: .passiveBurst)
        try container.encode(passivePerMinute, forKey: .passivePerMinute)
        try container.encode(connect.count, forKey: .connectRules)
        try container.encode(deny, forKey: .deny)
        // Which devices have a key, never the keys.
        try container.encode(Dictionary(uniqueKeysWithValues: bindkeys.keys.map { ($0.description, "***") }), forKey: .bindkeys)
        try container.encode(formats.map(\.name), forKey: .formats)
    }

    /// `bindkeys`: a map of addresses to 32 (or, for MiBeacon v2/v3, 24) hex digits, each value a secret that may
    /// be `${ENV}`, and `bindkeys_file`, a YAML file of the same map. A bad address or key is reported where it
    /// is written (for the file, at `bindkeys_file`), without quoting the key.
    private static func bindkeys(_ reader: SectionReader<CodingKeys>) -> [BluetoothAddress: BindKey] {
        let inline: [String: Secret] = reader.value(.bindkeys, default: [:])
        let file = (reader.textMapFile(.bindkeysFile) ?? [:]).map { (text: $0.key, secret: Secret($0.value), inFile: true) }
        var keys: [BluetoothAddress: BindKey] = [:]
        let entries = inline.map { (text: $0.key, secret: $0.value, inFile: false) } + file
        for (text, secret, inFile) in entries.sorted(by: { ($0.inFile ? 1 : 0, $0.text) < ($1.inFile ? 1 : 0, $1.text) }) {
            let path = inFile ? reader.path + ["bindkeys_file"] : reader.path + ["bindkeys", text]
            let prefix = inFile ? "\(text) in bindkeys_file: " : ""
            let address: BluetoothAddress
            do throws(BluetoothAddressError) {
                address = try BluetoothAddress(text)
            } catch {
                reader.collector.add(path, prefix + error.description, atKey: !inFile)
                continue
            }
            guard keys[address] == nil else {
                reader.collector.add(path, prefix + "\(address) has a bindkey already", atKey: !inFile)
                continue
            }
            do throws(BindKeyError) {
                keys[address] = try BindKey(hex: secret.value)
            } catch {
                reader.collector.add(path, prefix + error.description)
            }
        }
        return keys
    }

    /// `passive`: format names in any case, each once; an unknown or repeated one is reported where it is written.
    private static func passiveFormats(_ reader: SectionReader<CodingKeys>) -> [PassiveFormat] {
        guard let names: [String] = reader.optional(.passive) else { return PassiveFormat.defaults }
        var formats: [PassiveFormat] = []
        for (index, name) in names.enumerated() {
            let path = reader.path + ["passive", "Index \(index)"]
            guard let format = PassiveFormat(rawValue: name.lowercased()), format != .user else {
                let known = PassiveFormat.allCases.filter { $0 != .user }.map(\.rawValue).joined(separator: ", ")
                reader.collector.add(path, "\"\(name)\" is not a passive advert format (\(known))")
                continue
            }
            guard !formats.contains(format) else {
                reader.collector.add(path, "\"\(name)\" is listed twice")
                continue
            }
            formats.append(format)
        }
        return formats
    }
}

extension Configuration {
    /// The `ble` section.
    public var ble: BLESettings {
        get { self[BLESettings.self] }
        set { self[BLESettings.self] = newValue }
    }
}
