public import BridgeConfig
public import EV3Protocol

/// The `ev3` section: LEGO EV3 bricks on stock firmware.
public struct EV3Settings: Sendable, Equatable {
    public var enabled = false
    /// How bricks that are not listed are found.
    public var discovery = EV3DiscoverySettings()
    /// Bricks reached at a known address, in the order written.
    public var bricks: [EV3BrickSettings] = []
    /// How often each brick's ports, battery and buttons are read (one direct command per poll).
    public var pollInterval = ConfigDuration(milliseconds: 500)
    /// How long a request waits for the brick's reply; nil for the transport's own (1 s WiFi and USB, 2 s
    /// Bluetooth).
    public var replyTimeout: ConfigDuration?
    /// Creates the defaults.
    public init() {}
}

/// `ev3.discovery`: bricks found without being listed.
public struct EV3DiscoverySettings: Sendable, Equatable {
    /// Listen for the UDP beacon WiFi bricks broadcast.
    public var wifi = true
    /// The UDP port the beacon arrives on (the firmware sends to 3015).
    public var beaconPort = 3015
    /// Look for bricks on USB (hidraw devices with LEGO's vendor and product ids).
    public var usb = true
    /// Creates the defaults.
    public init() {}
}

/// One `ev3.bricks` entry.
public struct EV3BrickSettings: Sendable, Equatable {
    /// How the brick is reached.
    public var connection: EV3Connection
    /// The brick's serial number (its Bluetooth address without colons, lowercase), pinning its identity when
    /// the transport cannot tell it.
    public var serialNumber: String?
    /// Sensor modes chosen per sensor port (1–4); ports not listed keep the mode the brick reports.
    public var ports: [Int: EV3SensorMode] = [:]

    /// Creates an entry.
    public init(connection: EV3Connection, serialNumber: String? = nil, ports: [Int: EV3SensorMode] = [:]) {
        self.connection = connection
        self.serialNumber = serialNumber
        self.ports = ports
    }
}

/// How one brick is reached.
public enum EV3Connection: Sendable, Hashable, CustomStringConvertible {
    /// TCP to the brick's WiFi address (port 5555 unless given).
    case wifi(host: String, port: Int)
    /// Bluetooth RFCOMM channel 1 to a paired brick, by address (`AA:BB:CC:DD:EE:FF`).
    case bluetooth(address: String)
    /// A bound RFCOMM tty such as `/dev/rfcomm0`.
    case serial(path: String)
    /// A hidraw device such as `/dev/hidraw0`.
    case usb(path: String)

    /// The default TCP port of a brick's WiFi interface.
    public static let wifiPort = 5555

    /// As written in config: `wifi: host:port`, `bluetooth: address`, and so on.
    public var description: String {
        switch self {
        case .wifi(let host, let port): "wifi: \(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .bluetooth(let address): "bluetooth: \(address)"
        case .serial(let path): "serial: \(path)"
        case .usb(let path): "usb: \(path)"
        }
    }
}
