public import BLEModels
import DBus
public import Support

/// BlueZ's D-Bus interface names.
public enum BlueZInterface {
    public static let adapter = "org.bluez.Adapter1"
    public static let device = "org.bluez.Device1"
    public static let service = "org.bluez.GattService1"
    public static let characteristic = "org.bluez.GattCharacteristic1"
}

/// An `org.bluez.Adapter1` as last reported.
public struct BlueZAdapter: Sendable, Equatable {
    public let path: String
    public var address: String?
    public var powered = false
    public var discovering = false
    public var roles: [String] = []

    /// The adapter's short name, e.g. `hci0`.
    public var name: String { String(path.split(separator: "/").last ?? "") }

    /// Applies the properties it understands; values of an unexpected type are skipped, never trusted.
    mutating func update(_ properties: [String: DBusValue]) {
        if let value = properties["Address"]?.string { address = value }
        if let value = properties["Powered"]?.bool { powered = value }
        if let value = properties["Discovering"]?.bool { discovering = value }
        if let value = properties["Roles"]?.array { roles = value.compactMap(\.string) }
    }
}

/// An `org.bluez.Device1` as last reported.
public struct BlueZDevice: Sendable, Hashable {
    public let path: String
    public var address: BluetoothAddress?
    public var adapter: String?
    public var name: String?
    public var alias: String?
    public var rssi: Int?
    public var txPower: Int?
    public var services: [BLEUUID] = []
    public var connected = false
    public var servicesResolved = false
    public var manufacturerData: [UInt16: [UInt8]] = [:]
    /// The company id whose data changed last, when one did alone: BlueZ keeps every id it has seen, and
    /// ThermoPro and Inkbird sensors send each reading under a new one.
    public var latestManufacturer: UInt16?
    /// Service data by UUID, as the last advert that carried it had it.
    public var serviceData = ServiceData()

    /// The properties of `org.bluez.Device1` a change can carry, as a set of bits: the driver asks which ones
    /// an advert carried for every signal, so that is a mask test rather than string hashing.
    public struct Properties: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        public static let address = Properties(rawValue: 1 << 0)
        public static let adapter = Properties(rawValue: 1 << 1)
        public static let name = Properties(rawValue: 1 << 2)
        public static let alias = Properties(rawValue: 1 << 3)
        public static let rssi = Properties(rawValue: 1 << 4)
        public static let txPower = Properties(rawValue: 1 << 5)
        public static let uuids = Properties(rawValue: 1 << 6)
        public static let connected = Properties(rawValue: 1 << 7)
        public static let servicesResolved = Properties(rawValue: 1 << 8)
        public static let manufacturerData = Properties(rawValue: 1 << 9)
        public static let serviceData = Properties(rawValue: 1 << 10)
        /// Any property the record does not keep.
        public static let other = Properties(rawValue: 1 << 15)

        /// The advert payloads.
        public static let advertData: Properties = [.manufacturerData, .serviceData]
        /// What the device's descriptor (name, services, adapter) is made from.
        public static let descriptor: Properties = [.name, .alias, .uuids, .adapter]

        /// The property named so on D-Bus.
        public init(name: String) {
            switch name {
            case "Address": self = .address
            case "Adapter": self = .adapter
            case "Name": self = .name
            case "Alias": self = .alias
            case "RSSI": self = .rssi
            case "TxPower": self = .txPower
            case "UUIDs": self = .uuids
            case "Connected": self = .connected
            case "ServicesResolved": self = .servicesResolved
            case "ManufacturerData": self = .manufacturerData
            case "ServiceData": self = .serviceData
            default: self = .other
            }
        }
    }

    /// Applies a change: the values it carries (a mistyped one, which python-dbusmock sends, is skipped), then
    /// what it invalidates. Returns the properties the change named, whatever their values.
    mutating func update(_ change: DeviceChange) -> Properties {
        var named = update(change.other).union(change.named)
        if let level = change.rssi { rssi = Int(level) }
        if let data = change.manufacturerData { updateManufacturers(data) }
        if let data = change.serviceData { serviceData = data }
        for name in change.invalidated { named.insert(invalidate(name)) }
        return named
    }

    /// Applies the untyped properties it understands, each looked at once.
    private mutating func update(_ properties: [String: DBusValue]) -> Properties {
        var named: Properties = []
        for (key, value) in properties {
            let property = Properties(name: key)
            named.insert(property)
            switch property {
            case .address: if let text = value.string, let parsed = try? BluetoothAddress(text) { address = parsed }
            case .adapter: if let path = value.objectPath { adapter = path }
            case .name: if let text = value.string { name = text }
            case .alias: if let text = value.string { alias = text }
            case .txPower: if let level = value.int16 { txPower = Int(level) }
            case .uuids: if let list = value.array { services = list.compactMap { $0.string.flatMap { try? BLEUUID($0) } } }
            case .connected: if let flag = value.bool { connected = flag }
            case .servicesResolved: if let flag = value.bool { servicesResolved = flag }
            default: break
            }
        }
        return named
    }

    private mutating func updateManufacturers(_ data: [UInt16: [UInt8]]) {
        let changed = data.filter { manufacturerData[$0.key] != $0.value }.map(\.key)
        // Several ids changing at once (the first advert, or another adapter's view) name no newest one.
        if changed.count == 1 {
            latestManufacturer = changed[0]
        } else if !changed.isEmpty {
            latestManufacturer = data.count == 1 ? data.keys.first : nil
        }
        manufacturerData = data
    }

    /// Forgets a property BlueZ invalidated (e.g. RSSI once the device is out of range); returns which one it
    /// was.
    mutating func invalidate(_ name: String) -> Properties {
        let property = Properties(name: name)
        switch property {
        case .rssi: rssi = nil
        case .txPower: txPower = nil
        case .manufacturerData:
            manufacturerData = [:]
            latestManufacturer = nil
        case .serviceData: serviceData = [:]
        default: break
        }
        return property
    }
}

/// An `org.bluez.GattService1`.
public struct BlueZService: Sendable, Equatable {
    public let path: String
    public var uuid: BLEUUID?
    public var device: String?
    public var primary = true

    /// Applies the properties it understands.
    mutating func update(_ properties: [String: DBusValue]) {
        if let text = properties["UUID"]?.string, let parsed = try? BLEUUID(text) { uuid = parsed }
        if let value = properties["Device"]?.objectPath { device = value }
        if let value = properties["Primary"]?.bool { primary = value }
    }
}

/// An `org.bluez.GattCharacteristic1`.
public struct BlueZCharacteristic: Sendable, Equatable {
    public let path: String
    public var uuid: BLEUUID?
    public var service: String?
    public var flags: [String] = []
    public var value: [UInt8] = []
    public var notifying = false

    mutating func update(_ properties: [String: DBusValue]) {
        if let text = properties["UUID"]?.string, let parsed = try? BLEUUID(text) { uuid = parsed }
        if let value = properties["Service"]?.objectPath { service = value }
        if let value = properties["Flags"]?.array { flags = value.compactMap(\.string) }
        if let bytes = properties["Value"]?.bytes { value = bytes }
        if let value = properties["Notifying"]?.bool { notifying = value }
    }
}
