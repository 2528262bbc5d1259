public import BLEModels
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
    /// Whether the batch last handed over belongs to a burst that is still coming in, with nothing in it but
    /// adverts: a driver may let its states wait for a later batch. Once the burst ends (a quiet spell, or
    /// something more than an advert), a batch says so, with no change in it if need be.
    public private(set) var burstGoesOn = false

    /// Creates a client on an open connection; nothing arrives until `bus.follow()` runs. In a burst (a batch
    /// of at least `burstSignals` signals), the next batch is taken `batchInterval` after it: what comes in
    /// between waits in the mailbox, where each device's RSSI merges, so the driver sees one change per device
    /// per batch instead of one per signal, and wakes once per batch. 10 ms keeps the driver decoding while
    /// the burst comes in, so little is left for it when the burst ends; how often states are published is
    /// the driver's choice (`burstGoesOn`). Otherwise (a lone advert, a GATT notification, a usual home's few
    /// hundred adverts a second) nothing waits. Nor does the end of a burst: once the D-Bus loop has waited a
    /// quarter of `quietSpell` for the bus with every signal handed over, what came is taken, still in the burst,
    /// and once it has waited all of it, the burst's end. 4 ms, because a busy 2-core machine leaves 3 ms gaps
    /// in the middle of a burst often enough to end it, each end publishing every device's held state, and 5 ms
    /// hands the last values over later. Nor does anything but adverts: a GATT notification or a connection
    /// change that comes in a burst is taken within `quietSpell`. Service data under `stateOnlyServices` holds
    /// nothing but state: a device's newer payload replaces one still waiting, as its RSSI does.
    public init(
        connection: DBusConnection, logger: Logger, batchInterval: Duration = .milliseconds(10), burstSignals: Int = 16,
        quietSpell: Duration = .milliseconds(4), stateOnlyServices: Set<BLEUUID> = []
    ) {
        let mailbox = SignalMailbox(superseding: stateOnlyServices)
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
            var outcome = BurstWait.Outcome.flowing
            if let last = burstBatch { outcome = await gather(until: last + batchInterval) }
            let (batch, droppedNow, received, urgent) = bus.mailbox.drain()
            if droppedNow > 0 { noteDropped(droppedNow) }
            var changes: [BlueZChange] = []
            for entry in batch { apply(entry.path, entry.items, into: &changes) }
            // The end of a burst is handed over even without a change, so what the driver held is let go.
            if !changes.isEmpty || burstGoesOn {
                // A batch taken while the loop thread waits belongs to the burst whatever its size: its end comes next.
                let burst = received >= burstSignals || outcome == .quieting
                burstBatch = burst ? .now : nil
                burstGoesOn = burst && outcome != .ended && !urgent
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

    /// In a burst, lets adverts merge in the mailbox until `deadline`, or until the D-Bus loop's quiet spell
    /// shows the burst has ended, or something other than an advert (a GATT notification, a connection) comes,
    /// or the loop has begun to wait with signals left to take (see `BurstWait`).
    nonisolated(nonsending) private func gather(until deadline: ContinuousClock.Instant) async -> BurstWait.Outcome {
        var wait = BurstWait(deadline: deadline, quietSpell: quietSpell)
        var slept = false
        while !Task.isCancelled {
            switch wait.step(bus.mailbox.progress, now: .now) {
            case .sleep(let until):
                slept = true
                try? await Task.sleep(until: until, clock: .continuous)
            case .done(let outcome):
                // A burst whose batches take the caller longer than the interval never sleeps here; without a yield
                // the caller's other work (a command, a timer) would not run until the burst ends.
                if !slept { await Task.yield() }
                return outcome
            }
        }
        return .ended
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
