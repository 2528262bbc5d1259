public import DBus
public import Logging
import Support

/// BlueZ's objects, cached, for the one piece of code that follows BlueZ (the BLE driver). Not an actor of its
/// own: `next()` runs in its caller's isolation, so the D-Bus loop thread's bounded mailbox is the only hop
/// between the bus and the driver, and the cache is read without one.
///
/// `bus.follow()` (a child task) subscribes before `GetManagedObjects`, so nothing that happens in between is
/// missed; bluetoothd going away empties the cache, and coming back (a new owner of `org.bluez`) rebuilds it.
public final class BlueZClient {
    /// What the client reports, in order.
    public enum Event: Sendable, Equatable {
        /// bluetoothd is on the bus (at start, or again); the cache was (re)built.
        case available(owner: String)
        /// bluetoothd left the bus; the cache is empty until it returns.
        case unavailable
        /// Objects changed.
        case changed([BlueZChange])
        /// The client cannot follow BlueZ at all (the bus refused the subscription).
        case failed(String)
    }

    public static let busName = BlueZBus.busName
    /// Calls and the signal feed, for tasks of their own.
    public let bus: BlueZBus
    /// The cache, as of the last event handed over.
    public private(set) var objects = BlueZObjects()
    private var rings: AsyncStream<Void>.AsyncIterator
    /// Events made ready but not handed over yet (a load gives two).
    private var ready: [Event] = []
    /// Signals the mailbox dropped so far (it was full), and when that was last logged.
    private var dropped = 0
    private var droppedLogged: ContinuousClock.Instant?
    /// The shortest time between two batches taken from the mailbox in a burst (see `init`).
    private let batchInterval: Duration
    /// How many signals one batch must have carried for the next to wait (see `init`).
    private let burstSignals: Int
    /// A spell without any signal that ends the wait for a burst's next batch early (see `init`).
    private let quietSpell: Duration
    /// When the last batch that carried a burst was taken; nil when the last one was small.
    private var burstBatch: ContinuousClock.Instant?

    /// Creates a client on an open connection; nothing arrives until `bus.follow()` runs. In a burst (a batch
    /// of at least `burstSignals` signals), the next batch is taken `batchInterval` after it: what comes in
    /// between waits in the mailbox, where each device's RSSI merges, so the driver and the broker see one
    /// change per device per batch instead of one per signal, and the driver wakes once per batch. 50 ms keeps
    /// a device to 20 states a second in a burst, each with its newest values: a state costs the broker and
    /// every subscriber far more than a signal costs the driver. Otherwise (a lone advert, a GATT
    /// notification, a usual home's few hundred adverts a second) nothing waits. Nor does the end of a burst:
    /// once `quietSpell` passes without a signal, the batch is taken at once, so a burst's last values are not
    /// held for the rest of the interval; nor anything but adverts: a GATT notification or a connection
    /// change that comes in a burst is taken within `quietSpell`.
    public init(
        connection: DBusConnection, logger: Logger, batchInterval: Duration = .milliseconds(50), burstSignals: Int = 16,
        quietSpell: Duration = .milliseconds(3)
    ) {
        let mailbox = SignalMailbox()
        bus = BlueZBus(connection: connection, mailbox: mailbox, logger: logger)
        rings = mailbox.rings.makeAsyncIterator()
        self.batchInterval = batchInterval
        self.burstSignals = burstSignals
        self.quietSpell = quietSpell
    }

    /// The next event: news about bluetoothd first, then every signal waiting, applied to the cache; nil once
    /// the feed has ended and nothing is left.
    nonisolated(nonsending) public func next() async -> Event? {
        while !Task.isCancelled {
            if !ready.isEmpty { return ready.removeFirst() }
            for note in bus.mailbox.takeNotes() { await take(note) }
            if !ready.isEmpty { continue }
            if let last = burstBatch { await gather(until: last + batchInterval) }
            let (batch, droppedNow, received) = bus.mailbox.drain()
            if droppedNow > 0 { noteDropped(droppedNow) }
            var changes: [BlueZChange] = []
            for entry in batch { apply(entry.path, entry.items, into: &changes) }
            if !changes.isEmpty {
                burstBatch = received >= burstSignals ? .now : nil
                return .changed(changes)
            }
            guard await rings.next(isolation: #isolation) != nil else {
                // The feed ended: whatever it left, then the end.
                for note in bus.mailbox.takeNotes() { await take(note) }
                return ready.isEmpty ? nil : ready.removeFirst()
            }
        }
        return nil
    }

    /// In a burst, lets adverts merge in the mailbox until `deadline`, or until a quiet spell shows the burst
    /// has ended, or something other than an advert (a GATT notification, a connection) comes.
    nonisolated(nonsending) private func gather(until deadline: ContinuousClock.Instant) async {
        var seen = -1
        while !Task.isCancelled, ContinuousClock.now < deadline {
            let (received, urgent) = bus.mailbox.progress
            if urgent || received == seen { return }
            seen = received
            try? await Task.sleep(until: min(deadline, .now + quietSpell), clock: .continuous)
        }
    }

    /// Calls a BlueZ method (see `BlueZBus.call`).
    nonisolated(nonsending) public func call(
        _ path: String, _ interface: String, _ method: String, _ arguments: [DBusValue] = [],
        timeout: Duration = .seconds(10)
    ) async throws(DBusError) -> [DBusValue] {
        try await bus.call(path, interface, method, arguments, timeout: timeout)
    }

    private var logger: Logger { bus.logger }

    nonisolated(nonsending) private func take(_ note: SignalMailbox.Note) async {
        switch note {
        case .failed(let reason): ready.append(.failed(reason))
        case .owner(nil):
            objects = BlueZObjects()
            logger.warning("BlueZ left the bus")
            ready.append(.unavailable)
        case .owner(let owner?): await load(owner)
        }
    }

    /// Lists BlueZ's objects; signals meanwhile wait in the mailbox, to be applied on top of the snapshot. A
    /// bluetoothd that has just started may not answer yet: retried while it is still the owner.
    nonisolated(nonsending) private func load(_ owner: String) async {
        var backoff = Backoff(initial: .milliseconds(500), maximum: .seconds(10))
        while !Task.isCancelled {
            do {
                let reply = try await bus.call("/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", timeout: .seconds(5))
                let changes = objects.load(reply.first ?? .array("{oa{sa{sv}}}", []))
                logger.info(
                    "BlueZ on the bus",
                    metadata: ["owner": "\(owner)", "adapters": "\(objects.adapters.count)", "devices": "\(objects.devices.count)"])
                ready.append(.available(owner: owner))
                if !changes.isEmpty { ready.append(.changed(changes)) }
                return
            } catch {
                logger.warning("BlueZ did not list its objects; retrying", metadata: ["error": "\(error)"])
                ready.append(.failed(error.description))
                guard await bus.owner() == owner else { return }
                try? await Task.sleep(for: backoff.next())
            }
        }
    }

    /// Drops are counted always and logged at most every 10 s, so an overload does not flood the log as well.
    private func noteDropped(_ count: Int) {
        dropped += count
        BlueZMetrics.signalsDropped.increment(by: count)
        let now = ContinuousClock.now
        if let last = droppedLogged, now - last < .seconds(10) { return }
        droppedLogged = now
        logger.warning("BlueZ signals dropped: the bridge fell behind", metadata: ["total": "\(dropped)"])
    }

    /// Applies one path's items to the cache, appending what changed: each change is made once, where it
    /// is kept, not gathered per path and copied again.
    private func apply(_ path: String, _ items: [SignalMailbox.Item], into changes: inout [BlueZChange]) {
        for item in items {
            switch item {
            case .device(let change): if let applied = objects.deviceChanged(path, change) { changes.append(applied) }
            case .properties(let interface, let changed, let invalidated):
                changes += objects.propertiesChanged(path, interface: interface, properties: changed, invalidated: Array(invalidated))
            case .signal(let signal): changes += apply(signal)
            }
        }
    }

    private func apply(_ signal: DBusSignal) -> [BlueZChange] {
        switch (signal.interface, signal.member) {
        case ("org.freedesktop.DBus.ObjectManager", "InterfacesAdded"):
            guard signal.body.count >= 2, let path = signal.body[0].objectPath else { return [] }
            return objects.interfacesAdded(path, signal.body[1])
        case ("org.freedesktop.DBus.ObjectManager", "InterfacesRemoved"):
            guard signal.body.count >= 2, let path = signal.body[0].objectPath else { return [] }
            return objects.interfacesRemoved(path, signal.body[1].array?.compactMap(\.string) ?? [])
        default:
            return []
        }
    }
}
