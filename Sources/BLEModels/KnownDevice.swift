public import BridgeCore
public import Support

/// A BLE device as the connect policies and the admission rules see it: what BlueZ says about it plus what
/// the bridge remembers.
public struct KnownDevice: Sendable, Hashable {
    /// A manual connection request that overrides every policy until the next one (or a restart).
    public enum Manual: Sendable, Hashable {
        /// No manual request: the policies decide.
        case none
        /// Manually disconnected: held down until a manual connect.
        case disconnected
        /// Manually connected (or connected for a command): the policies leave the connection alone.
        case connected
    }

    /// The device's address.
    public var address: BluetoothAddress
    /// The advertised local name, if any.
    public var name: String?
    /// Advertised or resolved service UUIDs.
    public var services: Set<BLEUUID>
    /// The averaged signal 0.0–1.0, nil before the first reading.
    public var signal: Double?
    /// Where it stands; `connecting`, `ready` and `busy` hold a connection.
    public var status: DeviceStatus
    /// In the bridge's remembered set.
    public var remembered: Bool
    /// A manual connect or disconnect in force.
    public var manual: Manual

    /// Creates a device view.
    public init(
        address: BluetoothAddress, name: String? = nil, services: Set<BLEUUID> = [], signal: Double? = nil,
        status: DeviceStatus = .available, remembered: Bool = false, manual: Manual = .none
    ) {
        self.address = address
        self.name = name
        self.services = services
        self.signal = signal
        self.status = status
        self.remembered = remembered
        self.manual = manual
    }

    /// Whether a connection is up or being set up: it holds one of a rule's `max_devices` places.
    public var holdsConnection: Bool { Self.holds(status) }

    /// Whether a device in this status holds a connection (or a slot for one being set up).
    public static func holds(_ status: DeviceStatus?) -> Bool { status == .connecting || status?.isConnected == true }
}
