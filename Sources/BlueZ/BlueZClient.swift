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
    /// When the next batch is taken (see `BatchGap`).
    private var gap: BatchGap

    /// Creates a client on an open connection; nothing arrives until `bus.follow()` runs. Service data under
    /// `stateOnlyServices` holds nothing but state: a device's newer payload replaces one still waiting, as its
    /// RSSI does. While signals keep coming, batches are taken `busyGap` apart: what comes meanwhile merges per
    /// device in the mailbox, and the caller's other work (a command, a timer) runs in between.
    public init(
        connection: DBusConnection, logger: Logger, stateOnlyServices: Set<BLEUUID> = [], busyGap: Duration = .milliseconds(4)
    ) {
        let mailbox = SignalMailbox(superseding: stateOnlyServices)
        bus = BlueZBus(connection: connection, mailbox: mailbox, logger: logger)
        rings = mailbox.rings.makeAsyncIterator()
        gap = BatchGap(gap: busyGap)
    }

    /// The next event: news about bluetoothd first, then every signal waiting, applied to the cache; nil once
    /// the feed has ended and nothing is left. A signal that comes to an idle client is handed over at once;
    /// while the bus keeps it busy, the next batch is taken `busyGap` after the last.
    nonisolated(nonsending) public func next() async -> Event? {
        if let take = gap.nextTake() {
            // A caller that took longer than the gap still lets its other work run first.
            if ContinuousClock.now < take {
                try? await Task.sleep(until: take, clock: .continuous)
            } else {
                await Task.yield()
            }
        }
        var waited = false
        while !Task.isCancelled {
            if !ready.isEmpty { return ready.removeFirst() }
            for note in bus.mailbox.takeNotes() { await take(note) }
            if !ready.isEmpty { continue }
            let (batch, droppedNow) = bus.mailbox.drain()
            if droppedNow > 0 { noteDropped(droppedNow) }
            var changes: [BlueZChange] = []
            for entry in batch { apply(entry.path, entry.items, into: &changes) }
            if !changes.isEmpty {
                gap.took(at: .now, waited: waited)
                return .changed(changes)
            }
            waited = true
            guard await rings.next(isolation: #isolation) != nil else {
                // The feed ended: whatever it left, then the end.
                for note in bus.mailbox.takeNotes() { await take(note) }
                return ready.isEmpty ? nil : ready.removeFirst()
            }
        }
        return nil
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
