public import Support

/// Where a brick is and how to reach it. The transport decides the framing (a byte stream reassembled by the
/// length field, or USB reports) and the flow-control defaults (`EV3LinkOptions.defaults(for:)`).
public struct EV3Endpoint: Sendable, Hashable, CustomStringConvertible {
    /// The brick's radio or cable, which sets the timeouts and the pacing.
    public enum Transport: Sendable, Hashable {
        /// TCP through the brick's WiFi dongle.
        case wifi
        /// Bluetooth RFCOMM, as a socket or a bound `/dev/rfcommN` tty.
        case bluetooth
        /// USB HID reports.
        case usb
    }

    enum Kind: Hashable {
        case wifi(host: String, port: Int)
        case rfcomm(BluetoothAddress)
        case tty(path: String)
        case hidraw(path: String)
        case reports(descriptor: Int32)
    }

    let kind: Kind
    /// The serial number known before connecting (from a WiFi beacon, config, or the Bluetooth address).
    public let knownSerial: String?

    /// A brick on WiFi: TCP to `host:port`, unlock, then frames. `serial` (from its beacon) names it in the
    /// unlock string; the firmware does not check it.
    public static func wifi(host: String, port: Int = 5555, serial: String? = nil) -> EV3Endpoint {
        EV3Endpoint(kind: .wifi(host: host, port: port), knownSerial: serial?.lowercased())
    }

    /// A paired brick over Bluetooth: an RFCOMM socket to channel 1.
    public static func bluetooth(_ address: BluetoothAddress) -> EV3Endpoint {
        EV3Endpoint(kind: .rfcomm(address), knownSerial: address.compact)
    }

    /// A brick behind a bound RFCOMM tty (`rfcomm bind /dev/rfcomm0 <address> 1`) or any serial line, put
    /// into raw mode.
    public static func serial(path: String, serial: String? = nil) -> EV3Endpoint {
        EV3Endpoint(kind: .tty(path: path), knownSerial: serial?.lowercased())
    }

    /// A brick on USB through its hidraw device.
    public static func usb(path: String, serial: String? = nil) -> EV3Endpoint {
        EV3Endpoint(kind: .hidraw(path: path), knownSerial: serial?.lowercased())
    }

    /// An open descriptor that keeps report boundaries, spoken to as a USB brick (1025-byte reports out,
    /// 1024-byte reports in). The link takes ownership and closes it; it cannot be reopened, so a link on it
    /// does not reconnect. For a hidraw device opened elsewhere, and for tests.
    public static func usbReports(descriptor: Int32, serial: String? = nil) -> EV3Endpoint {
        EV3Endpoint(kind: .reports(descriptor: descriptor), knownSerial: serial?.lowercased())
    }

    /// The transport class.
    public var transport: Transport {
        switch kind {
        case .wifi: .wifi
        case .rfcomm, .tty: .bluetooth
        case .hidraw, .reports: .usb
        }
    }

    /// Whether the endpoint can be opened again after the connection drops.
    public var canReconnect: Bool {
        if case .reports = kind { return false }
        return true
    }

    /// `wifi host:port`, `bluetooth AA:BB:…`, `serial /dev/rfcomm0`, `usb /dev/hidraw0`.
    public var description: String {
        switch kind {
        case .wifi(let host, let port): "wifi \(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .rfcomm(let address): "bluetooth \(address)"
        case .tty(let path): "serial \(path)"
        case .hidraw(let path): "usb \(path)"
        case .reports(let descriptor): "usb descriptor \(descriptor)"
        }
    }
}

/// Flow control and timeouts for one brick.
public struct EV3LinkOptions: Sendable, Hashable {
    /// How long a request waits for its reply before it fails; a reply after that is dropped.
    public var replyTimeout: Duration
    /// The shortest time between two requests (Bluetooth links drop under a flood).
    public var minimumInterval: Duration
    /// Replies missed in a row after which the brick counts as gone and the connection is dropped.
    public var maxMissedReplies = 2
    /// Requests waiting at most; motor set-points (one per port) and stops come on top.
    public var queueLimit = 32
    /// How long opening a connection may take, WiFi unlock included.
    public var connectTimeout: Duration = .seconds(5)

    /// Creates options.
    public init(replyTimeout: Duration, minimumInterval: Duration) {
        self.replyTimeout = replyTimeout
        self.minimumInterval = minimumInterval
    }

    /// About 1 s for WiFi and USB; 2 s and at least 50 ms between requests for Bluetooth, whose round trips
    /// take 40–80 ms and whose link drops when flooded.
    public static func defaults(for transport: EV3Endpoint.Transport) -> EV3LinkOptions {
        switch transport {
        case .wifi, .usb: EV3LinkOptions(replyTimeout: .seconds(1), minimumInterval: .zero)
        case .bluetooth: EV3LinkOptions(replyTimeout: .seconds(2), minimumInterval: .milliseconds(50))
        }
    }
}
