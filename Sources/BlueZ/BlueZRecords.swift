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
    public var serviceData: [String: [UInt8]] = [:]

    /// Applies the properties it understands; a mistyped value (python-dbusmock sends some) is skipped.
    mutating func update(_ properties: [String: DBusValue]) {
        if let text = properties["Address"]?.string, let parsed = try? BluetoothAddress(text) { address = parsed }
        if let value = properties["Adapter"]?.objectPath { adapter = value }
        if let value = properties["Name"]?.string { name = value }
        if let value = properties["Alias"]?.string { alias = value }
        if let value = properties["RSSI"]?.int16 { rssi = Int(value) }
        if let value = properties["TxPower"]?.int16 { txPower = Int(value) }
        if let value = properties["UUIDs"]?.array { services = value.compactMap { $0.string.flatMap { try? BLEUUID($0) } } }
        if let value = properties["Connected"]?.bool { connected = value }
        if let value = properties["ServicesResolved"]?.bool { servicesResolved = value }
        if let entries = properties["ManufacturerData"]?.entries {
            var data: [UInt16: [UInt8]] = [:]
            for entry in entries {
                if let key = entry.key.uint16, let bytes = entry.value.bytes { data[key] = bytes }
            }
            let changed = data.filter { manufacturerData[$0.key] != $0.value }.map(\.key)
            // Several ids changing at once (the first advert, or another adapter's view) name no newest one.
            if changed.count == 1 {
                latestManufacturer = changed[0]
            } else if !changed.isEmpty {
                latestManufacturer = data.count == 1 ? data.keys.first : nil
            }
            manufacturerData = data
        }
        if let entries = properties["ServiceData"]?.entries {
            var data: [String: [UInt8]] = [:]
            for entry in entries {
                if let key = entry.key.string, let bytes = entry.value.bytes { data[key] = bytes }
            }
            serviceData = data
        }
    }

    /// Forgets a property BlueZ invalidated (e.g. RSSI once the device is out of range).
    mutating func invalidate(_ name: String) {
        switch name {
        case "RSSI": rssi = nil
        case "TxPower": txPower = nil
        case "ManufacturerData":
            manufacturerData = [:]
            latestManufacturer = nil
        case "ServiceData": serviceData = [:]
        default: break
        }
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
