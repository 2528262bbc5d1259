public import BridgeCore

/// Settings of the bridge process that do not come from the config file.
public struct BridgeOptions: Sendable {
    /// The version reported in `bridge/info` and discovery `origin`.
    public var version: String
    /// How long to collect retained discovery configs at start-up before cleaning up stale ones.
    public var discoveryWindow: Duration
    /// Range of the random delay before re-publishing after Home Assistant's birth message.
    public var birthDelay: ClosedRange<Double>
    /// Pause between clearing and re-creating discovery on a rename with `homeassistant_rename`.
    public var rediscoverDelay: Duration
    /// Debounce for `bridge/devices` and `bridge/info`.
    public var inventoryDebounce: Duration
    /// How often states held while the broker is behind are tried again.
    public var heldStateRetry: Duration
    /// Window in which repeated warnings and events of one kind from one source are summarised.
    public var repeatWindow: Duration
    /// Persists aliases set by `device/rename`; called with every renamed device's alias.
    public var saveAliases: (@Sendable ([DeviceID: String]) -> Void)?
    /// Aliases persisted by earlier renames.
    public var savedAliases: [DeviceID: String]
    /// Persists the remembered devices; called with the whole set after every change.
    public var saveRemembered: (@Sendable (Set<DeviceID>) -> Void)?
    /// Devices remembered by earlier `device/remember` or `device/connect` requests.
    public var savedRemembered: Set<DeviceID>
    /// How long `device/connect` and `device/disconnect` wait for the connection to come up or go down.
    public var connectionTimeout: Duration
    /// Where the publishes are offered to readers in the process (the web frontend), if any.
    public var publishTap: PublishTap?
    /// The process's recent log lines, published live on `bridge/logging` (rate-bounded), if any.
    public var logRing: LogRing?

    /// Creates options with the defaults used in production.
    public init(
        version: String, discoveryWindow: Duration = .seconds(3), birthDelay: ClosedRange<Double> = 2...6,
        rediscoverDelay: Duration = .seconds(2), inventoryDebounce: Duration = .milliseconds(100),
        repeatWindow: Duration = .seconds(10),
        saveAliases: (@Sendable ([DeviceID: String]) -> Void)? = nil, savedAliases: [DeviceID: String] = [:],
        saveRemembered: (@Sendable (Set<DeviceID>) -> Void)? = nil, savedRemembered: Set<DeviceID> = [],
        connectionTimeout: Duration = .seconds(10), heldStateRetry: Duration = .milliseconds(5)
    ) {
        self.version = version
        self.discoveryWindow = discoveryWindow
        self.birthDelay = birthDelay
        self.rediscoverDelay = rediscoverDelay
        self.inventoryDebounce = inventoryDebounce
        self.repeatWindow = repeatWindow
        self.saveAliases = saveAliases
        self.savedAliases = savedAliases
        self.saveRemembered = saveRemembered
        self.savedRemembered = savedRemembered
        self.connectionTimeout = connectionTimeout
        self.heldStateRetry = heldStateRetry
    }
}
