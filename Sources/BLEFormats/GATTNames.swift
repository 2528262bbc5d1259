public import BLEModels

/// The Bluetooth SIG's names for well-known services, characteristics and descriptors (Assigned Numbers), for
/// listing a device's GATT tree: `0000180d-…` is "Heart Rate".
public enum GATTNames {
    /// The name of a standard service, or nil.
    public static func service(_ uuid: BLEUUID) -> String? { uuid.uuid16.flatMap { services[$0] } }

    /// The name of a standard characteristic, or nil.
    public static func characteristic(_ uuid: BLEUUID) -> String? { uuid.uuid16.flatMap { characteristics[$0] } }

    /// The name of a standard descriptor, or nil.
    public static func descriptor(_ uuid: BLEUUID) -> String? { uuid.uuid16.flatMap { descriptors[$0] } }

    static let services: [UInt16: String] = [
        0x1800: "Generic Access", 0x1801: "Generic Attribute", 0x1802: "Immediate Alert", 0x1803: "Link Loss",
        0x1804: "Tx Power", 0x1805: "Current Time", 0x1806: "Reference Time Update", 0x1807: "Next DST Change",
        0x1808: "Glucose", 0x1809: "Health Thermometer", 0x180A: "Device Information", 0x180D: "Heart Rate",
        0x180E: "Phone Alert Status", 0x180F: "Battery", 0x1810: "Blood Pressure", 0x1811: "Alert Notification",
        0x1812: "Human Interface Device", 0x1813: "Scan Parameters", 0x1814: "Running Speed and Cadence",
        0x1815: "Automation IO", 0x1816: "Cycling Speed and Cadence", 0x1818: "Cycling Power",
        0x1819: "Location and Navigation", 0x181A: "Environmental Sensing", 0x181B: "Body Composition",
        0x181C: "User Data", 0x181D: "Weight Scale", 0x181E: "Bond Management", 0x181F: "Continuous Glucose Monitoring",
        0x1822: "Pulse Oximeter", 0x1826: "Fitness Machine", 0x183A: "Insulin Delivery",
        0xFCD2: "BTHome", 0xFEAA: "Eddystone", 0xFE59: "Nordic DFU",
    ]

    static let characteristics: [UInt16: String] = [
        0x2A00: "Device Name", 0x2A01: "Appearance", 0x2A02: "Peripheral Privacy Flag", 0x2A03: "Reconnection Address",
        0x2A04: "Peripheral Preferred Connection Parameters", 0x2A05: "Service Changed", 0x2A06: "Alert Level",
        0x2A07: "Tx Power Level", 0x2A08: "Date Time", 0x2A09: "Day of Week", 0x2A0A: "Day Date Time",
        0x2A19: "Battery Level", 0x2A1C: "Temperature Measurement", 0x2A1D: "Temperature Type",
        0x2A1E: "Intermediate Temperature", 0x2A1F: "Temperature Celsius",
        0x2A21: "Measurement Interval", 0x2A23: "System ID", 0x2A24: "Model Number String",
        0x2A25: "Serial Number String", 0x2A26: "Firmware Revision String", 0x2A27: "Hardware Revision String",
        0x2A28: "Software Revision String", 0x2A29: "Manufacturer Name String",
        0x2A2A: "IEEE 11073-20601 Regulatory Certification Data List", 0x2A2B: "Current Time",
        0x2A35: "Blood Pressure Measurement", 0x2A37: "Heart Rate Measurement", 0x2A38: "Body Sensor Location",
        0x2A39: "Heart Rate Control Point", 0x2A4A: "HID Information", 0x2A4B: "Report Map",
        0x2A4C: "HID Control Point", 0x2A4D: "Report", 0x2A4E: "Protocol Mode", 0x2A50: "PnP ID",
        0x2A53: "RSC Measurement", 0x2A5B: "CSC Measurement", 0x2A5C: "CSC Feature", 0x2A63: "Cycling Power Measurement",
        0x2A6D: "Pressure", 0x2A6E: "Temperature", 0x2A6F: "Humidity", 0x2A76: "UV Index", 0x2A77: "Irradiance",
        0x2A7B: "Dew Point", 0x2A98: "Weight", 0x2A9D: "Weight Measurement", 0x2A9E: "Weight Scale Feature",
        0x2AA6: "Central Address Resolution", 0x2AC9: "Resolvable Private Address Only", 0x2B29: "Client Supported Features",
        0x2B2A: "Database Hash", 0x2B3A: "Server Supported Features",
    ]

    static let descriptors: [UInt16: String] = [
        0x2900: "Characteristic Extended Properties", 0x2901: "Characteristic User Description",
        0x2902: "Client Characteristic Configuration", 0x2903: "Server Characteristic Configuration",
        0x2904: "Characteristic Presentation Format", 0x2905: "Characteristic Aggregate Format",
        0x2906: "Valid Range", 0x2908: "Report Reference",
    ]
}

/// What a characteristic allows, from BlueZ's `Flags` (`read`, `write-without-response`, `notify`, …).
public struct CharacteristicFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    /// Creates flags from bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let broadcast = CharacteristicFlags(rawValue: 1 << 0)
    public static let read = CharacteristicFlags(rawValue: 1 << 1)
    public static let writeWithoutResponse = CharacteristicFlags(rawValue: 1 << 2)
    public static let write = CharacteristicFlags(rawValue: 1 << 3)
    public static let notify = CharacteristicFlags(rawValue: 1 << 4)
    public static let indicate = CharacteristicFlags(rawValue: 1 << 5)
    public static let authenticatedSignedWrites = CharacteristicFlags(rawValue: 1 << 6)
    public static let extendedProperties = CharacteristicFlags(rawValue: 1 << 7)
    public static let reliableWrite = CharacteristicFlags(rawValue: 1 << 8)
    public static let writableAuxiliaries = CharacteristicFlags(rawValue: 1 << 9)
    public static let encryptRead = CharacteristicFlags(rawValue: 1 << 10)
    public static let encryptWrite = CharacteristicFlags(rawValue: 1 << 11)
    public static let encryptNotify = CharacteristicFlags(rawValue: 1 << 12)
    public static let encryptIndicate = CharacteristicFlags(rawValue: 1 << 13)
    public static let encryptAuthenticatedRead = CharacteristicFlags(rawValue: 1 << 14)
    public static let encryptAuthenticatedWrite = CharacteristicFlags(rawValue: 1 << 15)
    public static let encryptAuthenticatedNotify = CharacteristicFlags(rawValue: 1 << 16)
    public static let encryptAuthenticatedIndicate = CharacteristicFlags(rawValue: 1 << 17)
    public static let secureRead = CharacteristicFlags(rawValue: 1 << 18)
    public static let secureWrite = CharacteristicFlags(rawValue: 1 << 19)
    public static let secureNotify = CharacteristicFlags(rawValue: 1 << 20)
    public static let secureIndicate = CharacteristicFlags(rawValue: 1 << 21)
    public static let authorize = CharacteristicFlags(rawValue: 1 << 22)

    /// BlueZ's names, in bit order.
    static let names: [(CharacteristicFlags, String)] = [
        (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "write-without-response"), (.write, "write"),
        (.notify, "notify"), (.indicate, "indicate"), (.authenticatedSignedWrites, "authenticated-signed-writes"),
        (.extendedProperties, "extended-properties"), (.reliableWrite, "reliable-write"),
        (.writableAuxiliaries, "writable-auxiliaries"), (.encryptRead, "encrypt-read"), (.encryptWrite, "encrypt-write"),
        (.encryptNotify, "encrypt-notify"), (.encryptIndicate, "encrypt-indicate"),
        (.encryptAuthenticatedRead, "encrypt-authenticated-read"), (.encryptAuthenticatedWrite, "encrypt-authenticated-write"),
        (.encryptAuthenticatedNotify, "encrypt-authenticated-notify"),
        (.encryptAuthenticatedIndicate, "encrypt-authenticated-indicate"), (.secureRead, "secure-read"),
        (.secureWrite, "secure-write"), (.secureNotify, "secure-notify"), (.secureIndicate, "secure-indicate"),
        (.authorize, "authorize"),
    ]

    /// Parses BlueZ's flag names; names it does not know (a newer BlueZ) are left out.
    public init(bluez flags: [String]) {
        self = CharacteristicFlags(Self.names.filter { flags.contains($0.1) }.map(\.0))
    }

    /// The flags as BlueZ names them, in a fixed order.
    public var names: [String] { Self.names.filter { contains($0.0) }.map(\.1) }

    /// Whether the value can be read.
    public var canRead: Bool { contains(.read) }
    /// Whether it can be written with a response (`type: request`).
    public var canWrite: Bool { contains(.write) }
    /// Whether it can be written without a response (`type: command`).
    public var canWriteWithoutResponse: Bool { contains(.writeWithoutResponse) }
    /// Whether it can send values by itself, as notifications or indications (StartNotify handles both).
    public var canNotify: Bool { !isDisjoint(with: [.notify, .indicate]) }
}
