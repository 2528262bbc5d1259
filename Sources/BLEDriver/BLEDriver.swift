import BLEFormats
import BLEModels
public import BridgeConfig
public import BridgeCore
import BlueZ
public import DBus
import FoundationEssentials
public import Logging
import Support

/// BLE devices through BlueZ: discovery with signal strength, device status, which devices appear
/// (rules, configured, remembered, permit window), and connections on request.
public actor BLEDriver: DeviceDriver, ConnectionControl, ReloadableDriver {
    /// This driver serves `ble`.
    public nonisolated let integration = Integration.ble

    /// The `ble` section; a reload changes its keys and formats only (the rest needs a restart).
    var settings: BLESettings { didSet { passiveFormats = PassiveFormats(settings.passive) } }
    /// The formats `ble.passive` enables, as a set: every advert is decoded against it.
    var passiveFormats: PassiveFormats
    let configured: Set<DeviceID>
    let address: DBusAddress
    /// Where events for the bridge go; see `send(_:)`.
    let sink: DeviceEventSink
    /// Events held while one batch of BlueZ changes is handled, sent together at its end (nil: none held).
    var outbox: [DeviceEvent]?
    /// The devices with readings from the batch being handled (in `TrackedDevice.pending`), by object path.
    var unsettled: [String] = []
    /// The ingest rule: a device's readings are weighed at most once per 200 ms, what waits at the next period's
    /// start, so a device publishes at most 5 states a second, each with its newest values.
    var pacer = ReadingPacer<String>(period: 0.2)
    /// Rung when readings begin to wait for the pacer's next period, which `settleOnPeriods()` then waits for.
    let pacerBell = PollPause()
    let logger: Logger
    let started = ContinuousClock.now
    var client: BlueZClient?
    var adapter: String?
    var status = IntegrationStatus(.starting)
    /// Admitted devices by object path.
    var tracked: [String: TrackedDevice] = [:]
    var ignored = IgnoredAddresses()
    /// The ignored addresses heard lately, with name and signal, for `ble/nearby`.
    var nearby = NearbyAddresses()
    /// The permit window, and the bucket and ceiling new passive sensors come through without it.
    var admission: PassiveAdmission
    var remembered: Set<DeviceID> = []
    /// Manual connects and disconnects, which override the policies until the next one or a restart.
    var manual: [DeviceID: KnownDevice.Manual] = [:]
    /// One of a cluster's bridges: a device is held down (as if disconnected by hand) until the bridge says this
    /// bridge owns it.
    let shared: Bool
    /// In a cluster, the devices this bridge owns and may connect.
    var ownedHere: Set<DeviceID> = []
    /// The free connection slots last reported.
    var reportedSlots: Int??
    /// The adapters last reported.
    var reportedAdapters: [String]?
    var policy: ConnectPolicy
    /// In a cluster: the devices the `closest` rules would connect if this bridge owned every device.
    var closestPicks: Set<BluetoothAddress> = []
    /// When the policies were last applied (`now`).
    var policiesRun = -Double.infinity
    /// Automatic disconnects under way, so a policy review does not send another.
    var disconnecting: Set<DeviceID> = []
    /// Nova flashes, by device.
    var novas: [DeviceID: NovaSession] = [:]
    /// Connects, disconnects and interviews the driver starts itself, as children of `run()`.
    let tasks = ServiceTasks()
    /// The one timer of every Nova's writes, ack windows and renewals; a command or an ack wakes it.
    let novaTimer = PollPause()
    /// Automatic connects that failed wait for their back-off before the policy may try again.
    var retry: [DeviceID: (at: Double, backoff: Backoff)] = [:]
    /// Characteristics with a GATT operation under way, by object path.
    var gattBusy: Set<String> = []
    /// GATT exchanges under way (requests, Nova writes), by device: a hand-over to another bridge lets them finish.
    var gattInFlight: [DeviceID: Int] = [:]
    /// Characteristics the user subscribed to with `ble/notify`, by device: renewed after every reconnect.
    var gattSubscriptions: [DeviceID: Set<String>] = [:]
    /// The subscribed values last put into each device's state, as hex by characteristic UUID.
    var gattValues: [DeviceID: [String: JSONValue]] = [:]
    /// Bindkeys set with `ble/bindkey`, over the config's; kept in `memory` across restarts.
    var runtimeKeys: [BluetoothAddress: BindKey] = [:]
    /// The driver's entry in the alias file.
    let memory: DriverMemory
    /// `last_seen` text, written once per second however many adverts arrive in it.
    var lastSeen = LastSeenText()

    /// Creates the driver; `configured` are the BLE ids listed under `devices:`.
    public init(
        settings: BLESettings, configured: Set<DeviceID>, address: DBusAddress = .system, sink: DeviceEventSink,
        logger: Logger, memory: DriverMemory = .none, shared: Bool = false
    ) {
        self.shared = shared
        self.settings = settings
        passiveFormats = PassiveFormats(settings.passive)
        self.configured = configured
        self.address = address
        self.sink = sink
        self.logger = logger
        self.memory = memory
        policy = ConnectPolicy(rules: settings.rules)
        admission = PassiveAdmission(
            burst: settings.passiveBurst, perMinute: settings.passivePerMinute, maxDevices: settings.maxPassiveDevices)
        runtimeKeys = Self.savedKeys(memory.load(), logger: logger)
    }

    /// Seconds since the driver started: the monotonic time base of signal windows and tables.
    var now: Double {
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Follows BlueZ until cancelled; reconnects to the bus with back-off if it goes away.
    public func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.tasks.run() }
            await followBus()
            group.cancelAll()
        }
    }

    private func followBus() async {
        var backoff = Backoff(initial: .seconds(1), maximum: .seconds(30))
        var connectedBefore = false
        while !Task.isCancelled {
            do throws(DBusError) {
                let connection = try await DBusConnection.connect(to: address, logger: logger)
                backoff.reset()
                if connectedBefore { BLEMetrics.busReconnects.increment() }
                connectedBefore = true
                await follow(connection)
                await connection.close()
            } catch {
                setOffline(.bluezUnavailable, "no D-Bus system bus: \(error.message)")
            }
            guard (try? await Task.sleep(for: backoff.next())) != nil else { return }
        }
    }

    private func follow(_ connection: DBusConnection) async {
        let client = BlueZClient(connection: connection, logger: logger, stateOnlyServices: PassiveDecoder.stateOnlyServices)
        self.client = client
        let bus = client.bus
        // Ends (and the caller reconnects) when the bus connection drops: the feed ends, then `next()`.
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await bus.follow() }
            group.addTask {
                for await event in connection.events where event != .closed { break }
                bus.end()
            }
            group.addTask { [self] in await sweep() }
            group.addTask { [self] in await runNovas() }
            group.addTask { [self] in await settleOnPeriods() }
            while let event = await client.next() { await handle(event) }
            group.cancelAll()
        }
        self.client = nil
    }

    /// `/set` drives Nova flashes; other BLE devices have nothing to set yet.
    public func perform(_ command: DeviceCommand, on device: DeviceID) async throws(CommandError) {
        guard case .set(let set) = command else { return }
        try performNova(set, on: device)
    }

    /// `ble/permit`, `ble/bindkey`, `ble/nearby`, and GATT `ble/read`, `ble/write`, `ble/notify`.
    public func handleRequest(_ name: String, payload: [String: JSONValue]) async throws(CommandError) -> JSONValue {
        switch name {
        case "permit": return try permit(payload)
        case "read": return try await gattRead(payload)
        case "write": return try await gattWrite(payload)
        case "notify": return try await gattNotify(payload)
        case "bindkey": return try setBindkey(payload)
        case "nearby": return try nearbyDevices(payload)
        default: throw CommandError("unknown request ble/\(name) (known: permit, bindkey, nearby, read, write, notify)")
        }
    }

    /// `ble/permit` `{"time": seconds}` opens (or with 0 closes) the window in which any device seen appears.
    private func permit(_ payload: [String: JSONValue]) throws(CommandError) -> JSONValue {
        guard let seconds = payload["time"]?.doubleValue, seconds.isFinite, (0...3600).contains(seconds) else {
            throw CommandError("ble/permit needs {\"time\": seconds}, 0 to 3600")
        }
        admission.permit(for: .seconds(seconds), at: .now)
        let until = Date().addingTimeInterval(seconds)
        logger.info("BLE permit window", metadata: ["seconds": "\(Int(seconds))"])
        return ["time": .number(seconds), "until": seconds > 0 ? .string(until.ISO8601Format()) : .null]
    }

    /// Forgets a removed device; it comes back when admitted again.
    public func forget(_ device: DeviceID) async {
        for entry in tracked.values where entry.id == device && entry.countedPassive { admission.release() }
        tracked = tracked.filter { $0.value.id != device }
        novas[device] = nil
        manual[device] = nil
        retry[device] = nil
        gattSubscriptions[device] = nil
        gattValues[device] = nil
    }
}
