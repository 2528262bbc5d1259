/// A device family (LIFX, BLE, EV3) plugged into the bridge. Drivers translate their protocol into
/// `DeviceEvent`s and `DeviceCommand`s into protocol requests; they know nothing about MQTT.
///
/// The bridge calls `perform` for one device at a time, in arrival order, so a driver that queues
/// the work per device and returns keeps each device's command order.
public protocol DeviceDriver: Sendable {
    /// The family this driver serves; its devices' ids start with it.
    var integration: Integration { get }

    /// Runs the driver until graceful shutdown or cancellation, reporting through the sink it was given.
    func run() async throws

    /// Called once `run` has returned, in a task that is not cancelled: work accepted before the stop that must
    /// still go out (queued cloud writes), within the driver's own time limit.
    func finish() async

    /// Applies a validated command; returns once it is accepted (queued), throws if it is refused.
    func perform(_ command: DeviceCommand, on device: DeviceID) async throws(CommandError)

    /// Answers `bridge/request/<integration>/<name>`.
    func handleRequest(_ name: String, payload: [String: JSONValue]) async throws(CommandError) -> JSONValue

    /// The bridge stopped tracking this device (removed by a user); forget cached knowledge of it.
    func forget(_ device: DeviceID) async
}

extension DeviceDriver {
    /// Nothing to send after the stop.
    public func finish() async {}
}

/// A driver whose devices hold connections (BLE, EV3). The bridge routes `device/connect`,
/// `device/disconnect` and `device/remember` to it, after resolving the device and off its request queue.
public protocol ConnectionControl: DeviceDriver {
    /// Connects and returns once the connection is up; throws when it cannot be made.
    func connect(_ device: DeviceID) async throws(CommandError)

    /// Disconnects and returns once the connection is down; the driver holds it down until a manual
    /// connect or a restart, whatever its policy says.
    func disconnect(_ device: DeviceID) async throws(CommandError)

    /// The device joined or left the remembered set (told once per remembered device at start-up too).
    func setRemembered(_ device: DeviceID, _ remembered: Bool) async

    /// In a cluster, another bridge owns the device, or none yet (`true`), or this one may hold it (`false`):
    /// while it is owned elsewhere, the driver neither connects it nor keeps it connected, and `true` returns
    /// once a connection it held is down. A driver made with `DriverContext.shared` starts with every device
    /// owned elsewhere.
    func setOwnedElsewhere(_ device: DeviceID, _ elsewhere: Bool) async
}

extension ConnectionControl {
    /// Families whose devices only one bridge can hear have nothing to give up.
    public func setOwnedElsewhere(_ device: DeviceID, _ elsewhere: Bool) async {}
}
