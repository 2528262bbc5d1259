public import DBus
public import Logging
import Support

/// BlueZ over D-Bus with its objects cached. Signals are subscribed before `GetManagedObjects`, so
/// nothing that happens in between is missed; bluetoothd going away empties the cache, and coming back
/// (a new owner of `org.bluez`) rebuilds it, so the driver can restart discovery and reconnect.
///
/// The D-Bus loop thread puts BlueZ's signals into one bounded mailbox that merges them per object path; the
/// driver takes what waits there with `next()`, which applies it to the cache as it hands it over, so nothing
/// queues between the bus and the driver but that mailbox.
public actor BlueZClient {
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

    public static let busName = "org.bluez"
    let connection: DBusConnection
    let logger: Logger
    /// The cache, as of the last event handed over.
    public private(set) var objects = BlueZObjects()
    private let mailbox = SignalMailbox()
    private var rings: AsyncStream<Void>.AsyncIterator
    /// Owner news, handed over before any signal: a few at a time, as bluetoothd comes and goes.
    private var news: [Event] = []
    /// `GetManagedObjects` is in flight: signals wait in the mailbox, to be applied on top of its snapshot.
    private var loading = false
    private var ended = false
    /// Signals the mailbox dropped so far (it was full), and when that was last logged.
    private var dropped = 0
    private var droppedLogged: ContinuousClock.Instant?

    /// Creates a client on an open connection; nothing happens until `run()`.
    public init(connection: DBusConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
        rings = mailbox.rings.makeAsyncIterator()
    }

    /// Follows BlueZ until cancelled or the connection closes.
    public func run() async {
        defer {
            ended = true
            mailbox.ring()
        }
        let end: @Sendable () -> Void
        let owners: AsyncStream<String?>
        do {
            end = try await connection.subscribe(DBusMatchRule(sender: Self.busName), into: mailbox)
            owners = try await connection.watchNameOwner(Self.busName)
        } catch {
            logger.error("Cannot follow BlueZ on D-Bus", metadata: ["error": "\(error)"])
            report(.failed(error.description))
            return
        }
        defer { end() }
        for await owner in owners { await ownerChanged(owner) }
    }

    /// The next event: owner news first, then everything the mailbox holds, applied to the cache; nil once the
    /// client has ended.
    public func next() async -> Event? {
        while !Task.isCancelled {
            if !news.isEmpty { return news.removeFirst() }
            if !loading {
                let (batch, droppedSoFar) = mailbox.drain()
                if droppedSoFar > 0 { noteDropped(droppedSoFar) }
                let changes = batch.flatMap { apply($0.path, $0.items) }
                if !changes.isEmpty { return .changed(changes) }
            }
            if ended { return nil }
            var waiting = rings
            // The mailbox finished with the connection: what news is left, then the end.
            guard await waiting.next(isolation: #isolation) != nil else { return news.isEmpty ? nil : news.removeFirst() }
        }
        return nil
    }

    /// Calls a BlueZ method; BlueZ's error names (`org.bluez.Error.InProgress`, …) come back in the error.
    public func call(
        _ path: String, _ interface: String, _ method: String, _ arguments: [DBusValue] = [],
        timeout: Duration = .seconds(10)
    ) async throws(DBusError) -> [DBusValue] {
        try await connection.call(
            destination: Self.busName, path: path, interface: interface, method: method, arguments: arguments,
            timeout: timeout)
    }

    /// Drops are counted always and logged at most every 10 s, so an overload does not flood the log as well.
    private func noteDropped(_ count: Int) {
        dropped += count
        let now = ContinuousClock.now
        if let last = droppedLogged, now - last < .seconds(10) { return }
        droppedLogged = now
        logger.warning("BlueZ signals dropped: the bridge fell behind", metadata: ["total": "\(dropped)"])
    }

    private func report(_ event: Event) {
        news.append(event)
        mailbox.ring()
    }

    private func ownerChanged(_ owner: String?) async {
        guard let owner else {
            objects = BlueZObjects()
            logger.warning("BlueZ left the bus")
            report(.unavailable)
            return
        }
        // A bluetoothd that has just started may not answer yet: retry while it is still the owner.
        var backoff = Backoff(initial: .milliseconds(500), maximum: .seconds(10))
        while !Task.isCancelled {
            loading = true
            defer {
                loading = false
                mailbox.ring()
            }
            do {
                let reply = try await call("/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", timeout: .seconds(5))
                let changes = objects.load(reply.first ?? .array("{oa{sa{sv}}}", []))
                logger.info(
                    "BlueZ on the bus",
                    metadata: ["owner": "\(owner)", "adapters": "\(objects.adapters.count)", "devices": "\(objects.devices.count)"])
                report(.available(owner: owner))
                if !changes.isEmpty { report(.changed(changes)) }
                return
            } catch {
                logger.warning("BlueZ did not list its objects; retrying", metadata: ["error": "\(error)"])
                report(.failed(error.description))
                guard (try? await connection.nameOwner(Self.busName)) == owner else { return }
                try? await Task.sleep(for: backoff.next())
            }
        }
    }

    private func apply(_ path: String, _ items: [SignalMailbox.Item]) -> [BlueZChange] {
        var changes: [BlueZChange] = []
        for item in items {
            switch item {
            case .properties(let interface, let changed, let invalidated):
                changes += objects.propertiesChanged(path, interface: interface, properties: changed, invalidated: Array(invalidated))
            case .signal(let signal): changes += apply(signal)
            }
        }
        return changes
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
