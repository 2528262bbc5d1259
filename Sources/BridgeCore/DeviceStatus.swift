/// Where a device stands, for every family (after the Nova SDK's model): `status` in the device's retained
/// state, `device_status` in `bridge/devices`. MQTT availability follows it.
public enum DeviceStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// In range (or listed by its cloud) but not connected.
    case available
    /// Out of range, offline, or not heard from for too long.
    case unavailable
    /// A connection is being set up.
    case connecting
    /// Connected and idle.
    case ready
    /// Connected with a command in flight.
    case busy

    /// Whether the device's availability topic says `online` in this status.
    public var isOnline: Bool { self != .unavailable }

    /// Whether the device holds a connection (a change of this is `device_connected`/`device_disconnected`).
    public var isConnected: Bool { self == .ready || self == .busy }
}

/// How an integration is doing, with a detail for people: `bridge/info`, `health_check`, `bridge/event`.
public struct IntegrationStatus: Sendable, Hashable {
    /// The states every family reports; what is particular to a family goes in `reason`, so the Home
    /// Assistant status sensor's options stay the same whichever families there are.
    public enum State: String, Sendable, Hashable, CaseIterable {
        case disabled, starting, running
        /// What the integration drives cannot be reached: no hardware, or its daemon or service is gone.
        /// It heals by itself. Not `unavailable`, which Home Assistant takes for "the entity has no state".
        case offline
        /// The service refused the integration's credentials.
        case unauthorized
        case error
    }

    public var state: State
    /// A short, stable code the family gives for the state (BLE: `no_adapter`, `adapter_off`,
    /// `bluez_unavailable`), for automations; nil when the state says enough.
    public var reason: String?
    public var detail: String?
    /// Figures the integration reports beside its state, shown in `bridge/info` (e.g. BLE's `ignored_devices`).
    public var figures: [String: JSONValue]

    /// Creates a status.
    public init(_ state: State, reason: String? = nil, detail: String? = nil, figures: [String: JSONValue] = [:]) {
        self.state = state
        self.reason = reason
        self.detail = detail
        self.figures = figures
    }

    /// Whether `health_check` counts the integration as healthy.
    public var isHealthy: Bool { ![.offline, .unauthorized, .error].contains(state) }
}
