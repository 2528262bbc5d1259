import BridgeCore
import EV3Link
import EV3Protocol
import Logging
import Support

/// One brick: its link kept up, its ports polled, its commands sent, its status and state reported.
///
/// The device appears once its identity is known (from the config, a beacon, or the brick itself when it
/// answers); it is `connecting` while the first connection is made, `ready` while connected, `busy` while a
/// command of the user's (LED, sound, name, mode) waits for the brick, and `unavailable` from a lost
/// connection until the next one is up. A brick disconnected by request is `available` and held down.
actor BrickController {
    nonisolated let endpoint: EV3Endpoint
    let link: EV3Link
    let sink: DeviceEventSink
    let logger: Logger
    let pollInterval: Duration
    let backoff: Backoff
    /// Asks the driver whether this controller may speak for a device (another path may reach the same brick).
    let claim: @Sendable (DeviceID, BrickController) async -> Bool

    var id: DeviceID?
    var info: EV3BrickInfo?
    var model = BrickModel()
    var plan = EV3PollPlan(groups: PollGroup.all)
    var status: DeviceStatus?
    var announced: DeviceDescriptor?
    var published: [String: JSONValue] = [:]
    /// Whether the link has introduced the brick and serves requests.
    var connected = false
    /// Sensor modes to keep (config and `port_N_mode`), and when each was last asked for.
    var wantedModes: [Int: EV3SensorMode]
    var modeAsked: [Int: ContinuousClock.Instant] = [:]
    /// Held down by `device/disconnect` until `device/connect`.
    var held = false
    /// Set once the running link has ended; nil while none runs.
    var linkEnded: OnceValue<Void>?
    /// Rung by `hold()` to stop the running link.
    let holds: AsyncStream<Void>
    let holdDown: AsyncStream<Void>.Continuation
    let releases: AsyncStream<Void>
    let release: AsyncStream<Void>.Continuation
    /// The pause between polls, cut short after a connection and by `/get`.
    let pollPause = PollPause()
    /// Commands and mode switches the controller starts itself, as children of `run()`.
    let tasks = ServiceTasks()
    /// User requests waiting for the brick; the device is `busy` while there are any.
    var outstanding = 0
    /// Callers of `connect()` waiting for the outcome of the next attempt.
    var attemptWaiters: [CheckedContinuation<Result<Void, EV3LinkError>, Never>] = []
    /// Ends `run()` when the driver replaces this controller (a discovered brick at a new address).
    let retirement: AsyncStream<Void>
    let retire: AsyncStream<Void>.Continuation

    init(
        endpoint: EV3Endpoint, serial: String?, modes: [Int: EV3SensorMode], linkOptions: EV3LinkOptions,
        pollInterval: Duration, backoff: Backoff, sink: DeviceEventSink, logger: Logger,
        claim: @escaping @Sendable (DeviceID, BrickController) async -> Bool
    ) {
        self.endpoint = endpoint
        link = EV3Link(endpoint: endpoint, options: linkOptions, logger: logger)
        self.sink = sink
        self.logger = logger
        self.pollInterval = pollInterval
        self.backoff = backoff
        self.claim = claim
        wantedModes = modes
        id = (serial ?? endpoint.knownSerial).map(DeviceID.ev3(serial:))
        (releases, release) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (retirement, retire) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (holds, holdDown) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Keeps the brick connected, polled and reported until cancelled or retired.
    func run() async {
        if let id, await claim(id, self) {
            announce()
            setStatus(.connecting)
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.tasks.run() }
            group.addTask { await self.follow() }
            group.addTask { await self.pollLoop() }
            group.addTask { await self.keepConnected() }
            group.addTask { [retirement] in for await _ in retirement { break } }
            // The connection gave up for good (a descriptor that cannot be reopened), or the driver retired
            // this controller: the rest stops too.
            await group.next()
            group.cancelAll()
        }
    }

    /// Whether the link is connected now.
    var isConnected: Bool { connected }

    /// Runs the link until held down, again once released; ends when cancelled (or for a descriptor that
    /// cannot be opened twice, after its one connection).
    private func keepConnected() async {
        while !Task.isCancelled {
            if held {
                for await _ in releases { break }
                continue
            }
            let ended = OnceValue<Void>()
            linkEnded = ended
            // The link runs until it gives up, this controller stops, or `hold()` rings.
            await withTaskGroup(of: Void.self) { group in
                group.addTask { [link, backoff] in await link.run(backoff: backoff) }
                group.addTask { [holds] in for await _ in holds where await self.held { break } }
                await group.next()
                group.cancelAll()
            }
            linkEnded = nil
            ended.set(())
            guard endpoint.canReconnect else { return }
        }
    }

    /// Turns the link's events into the device's status.
    private func follow() async {
        for await event in link.events {
            switch event {
            case .connecting:
                if status == nil || status == .available { setStatus(.connecting) }
            case .connected(let info): await connected(info)
            case .disconnected(let reason): disconnected(reason)
            case .commandFailed(let what, let error): fail("\(what): \(error)")
            }
        }
    }

    private func connected(_ info: EV3BrickInfo) async {
        let serial = info.serialNumber ?? endpoint.description
        let newID = DeviceID.ev3(serial: serial)
        if newID != id {
            if id != nil { setStatus(.unavailable, detail: "another brick answered at \(endpoint)") }
            guard await claim(newID, self) else {
                logger.warning(
                    "EV3 brick reached twice; this path is held down",
                    metadata: ["device.id": "\(newID)", "ev3.endpoint": "\(endpoint)"])
                hold()
                return
            }
            id = newID
            status = nil
            announced = nil
            published = [:]
            model = BrickModel()
            plan = EV3PollPlan(groups: PollGroup.all)
        }
        self.info = info
        model.setName(info.name)
        connected = true
        modeAsked = [:]
        announce()
        setStatus(.ready)
        publishState()
        finishAttempt(.success(()))
        wakePoll()
    }

    private func disconnected(_ reason: EV3LinkError) {
        connected = false
        outstanding = 0
        finishAttempt(.failure(reason))
        guard status != nil else { return }
        setStatus(held ? .available : .unavailable, detail: reason.description)
    }

    /// Reports the status when it changes.
    func setStatus(_ new: DeviceStatus, detail: String? = nil) {
        guard let id, status != new else { return }
        status = new
        sink.send(.status(id, new, detail: detail))
    }

    /// Announces the description when it changed (versions, name, ports).
    func announce() {
        guard let id else { return }
        let descriptor = BrickDescriptor.make(id: id, endpoint: endpoint, info: info, model: model)
        guard descriptor != announced else { return }
        announced = descriptor
        sink.send(.discovered(descriptor))
    }

    /// Sends what changed in the state since the last time.
    func publishState() {
        guard let id, announced != nil else { return }
        let change = StateChange.between(published, model.state)
        guard !change.isEmpty else { return }
        published = model.state
        sink.send(.state(id, change))
    }

    /// A command that failed after it was accepted.
    func fail(_ reason: String) {
        guard let id else { return }
        logger.warning("EV3 command failed", metadata: ["device.id": "\(id)", "error": "\(reason)"])
        sink.send(.occurred(id, .commandFailed(reason)))
    }

    /// The bridge forgot the device: everything is announced and published afresh.
    func forget() {
        announced = nil
        published = [:]
        status = nil
        if connected {
            announce()
            setStatus(.ready)
            publishState()
        }
    }
}
