public import DBus
public import Logging
import Support

/// BlueZ over D-Bus with its objects cached. Signals are subscribed before `GetManagedObjects`, so
/// nothing that happens in between is missed; bluetoothd going away empties the cache, and coming back
/// (a new owner of `org.bluez`) rebuilds it, so the driver can restart discovery and reconnect.
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
    /// The cache, as of the last event.
    public private(set) var objects = BlueZObjects()
    private let continuation: AsyncStream<Event>.Continuation
    /// Signals that arrive while `GetManagedObjects` is in flight, replayed on top of its snapshot so that
    /// nothing emitted after the snapshot was taken is lost to it.
    private var heldSignals: [DBusSignal]?
    /// The events, for one consumer.
    public nonisolated let events: AsyncStream<Event>

    /// Creates a client on an open connection; nothing happens until `run()`.
    public init(connection: DBusConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
    }

    /// Follows BlueZ until cancelled.
    public func run() async {
        let signals: AsyncStream<DBusSignal>
        let owners: AsyncStream<String?>
        do {
            signals = try await connection.subscribe(DBusMatchRule(sender: Self.busName))
            owners = try await connection.watchNameOwner(Self.busName)
        } catch {
            logger.error("Cannot follow BlueZ on D-Bus", metadata: ["error": "\(error)"])
            continuation.yield(.failed(error.description))
            return
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await owner in owners { await self.ownerChanged(owner) } }
            group.addTask { for await signal in signals { await self.handle(signal) } }
            await group.waitForAll()
        }
        continuation.finish()
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

    private func ownerChanged(_ owner: String?) async {
        guard let owner else {
            objects = BlueZObjects()
            logger.warning("BlueZ left the bus")
            continuation.yield(.unavailable)
            return
        }
        // A bluetoothd that has just started may not answer yet: retry while it is still the owner.
        var backoff = Backoff(initial: .milliseconds(500), maximum: .seconds(10))
        while !Task.isCancelled {
            heldSignals = []
            defer { heldSignals = nil }
            do {
                let reply = try await call("/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", timeout: .seconds(5))
                var changes = objects.load(reply.first ?? .array("{oa{sa{sv}}}", []))
                for signal in heldSignals ?? [] { changes += apply(signal) }
                logger.info(
                    "BlueZ on the bus",
                    metadata: ["owner": "\(owner)", "adapters": "\(objects.adapters.count)", "devices": "\(objects.devices.count)"])
                continuation.yield(.available(owner: owner))
                if !changes.isEmpty { continuation.yield(.changed(changes)) }
                return
            } catch {
                logger.warning("BlueZ did not list its objects; retrying", metadata: ["error": "\(error)"])
                continuation.yield(.failed(error.description))
                guard (try? await connection.nameOwner(Self.busName)) == owner else { return }
                try? await Task.sleep(for: backoff.next())
            }
        }
    }

    private func handle(_ signal: DBusSignal) {
        if heldSignals != nil {
            heldSignals?.append(signal)
            return
        }
        let changes = apply(signal)
        if !changes.isEmpty { continuation.yield(.changed(changes)) }
    }

    private func apply(_ signal: DBusSignal) -> [BlueZChange] {
        var changes: [BlueZChange] = []
        switch (signal.interface, signal.member) {
        case ("org.freedesktop.DBus.ObjectManager", "InterfacesAdded"):
            guard signal.body.count >= 2, let path = signal.body[0].objectPath else { return [] }
            changes = objects.interfacesAdded(path, signal.body[1])
        case ("org.freedesktop.DBus.ObjectManager", "InterfacesRemoved"):
            guard signal.body.count >= 2, let path = signal.body[0].objectPath else { return [] }
            changes = objects.interfacesRemoved(path, signal.body[1].array?.compactMap(\.string) ?? [])
        case ("org.freedesktop.DBus.Properties", "PropertiesChanged"):
            guard signal.body.count >= 2, let interface = signal.body[0].string else { return [] }
            let invalidated = signal.body.count >= 3 ? signal.body[2].array?.compactMap(\.string) ?? [] : []
            changes = objects.propertiesChanged(signal.path, interface: interface, changed: signal.body[1], invalidated: invalidated)
        default:
            break
        }
        return changes
    }
}
