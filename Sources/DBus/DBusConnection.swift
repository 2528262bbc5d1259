import CDBus
import FoundationEssentials
import Glibc
public import Logging
import Support

/// Where a bus listens, in D-Bus address syntax (`unix:path=/run/dbus/system_bus_socket`).
public struct DBusAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address text.
    public let rawValue: String

    /// Wraps an address, e.g. the one a private `dbus-daemon --print-address` printed.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The system bus: `DBUS_SYSTEM_BUS_ADDRESS` when set, else the standard socket.
    public static var system: DBusAddress {
        let configured = ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"] ?? ""
        return DBusAddress(configured.isEmpty ? "unix:path=/run/dbus/system_bus_socket" : configured)
    }

    /// The address text.
    public var description: String { rawValue }
}

/// One private connection to a message bus, with its own thread (see `EventLoop` for the design). Calls and
/// subscriptions are async and never block a thread of the cooperative pool; the connection reports its end
/// through `events` instead of exiting the process.
public final class DBusConnection: Sendable {
    /// How the connection ended; `events` yields one of these, then finishes.
    public enum Event: Sendable, Hashable {
        /// The bus closed the connection (e.g. the daemon stopped).
        case disconnected
        /// `close()` ended it.
        case closed
    }

    /// This connection's unique bus name, e.g. `:1.42`.
    public let uniqueName: String
    let core: ConnectionCore

    /// The log handler used when a caller passes none: silent, because a library never picks a backend.
    public static let silentLogger = Logger(label: "dbus", factory: { _ in SwiftLogNoOpLogHandler() })

    private static let threadsReady: Bool = {
        // Thread safety is the default since libdbus 1.7; this makes it explicit for older libraries.
        dbus_threads_init_default()
        return true
    }()

    private init(uniqueName: String, core: ConnectionCore) {
        self.uniqueName = uniqueName
        self.core = core
    }

    /// Opens a private connection and registers it with the bus (the `Hello` exchange happens on the
    /// connection's thread, not the caller's).
    public static func connect(to address: DBusAddress = .system, logger: Logger = silentLogger) async throws(DBusError)
        -> DBusConnection
    {
        _ = threadsReady
        let core = try ConnectionCore(logger: logger)
        let opened = OnceValue<Result<String, DBusError>>()
        DetachedThread.start(name: "dbus") { EventLoop.run(address: address.rawValue, core: core, opened: opened) }
        let name = try await opened.wait().get()
        logger.debug("D-Bus connected", metadata: ["dbus.address": "\(address)", "dbus.name": "\(name)"])
        return DBusConnection(uniqueName: name, core: core)
    }

    deinit { core.submit(.close) }

    /// Yields `.disconnected` or `.closed` once, when the connection ends, then finishes. One consumer.
    public var events: AsyncStream<Event> { core.events }

    /// Whether calls are still accepted (false once closed or disconnected).
    public var isOpen: Bool { core.isOpen }

    /// Calls a method and returns the reply's arguments. Arguments are written with `signature` when given,
    /// else with each value's own signature. An error reply throws `.remote` with its name and message; no
    /// reply within `timeout` throws `.timedOut`; closing or losing the connection fails the call at once.
    public func call(
        destination: String, path: String, interface: String, method: String, arguments: [DBusValue] = [],
        signature: DBusSignature? = nil, timeout: Duration = .seconds(25)
    ) async throws(DBusError) -> [DBusValue] {
        let operation = "call \(interface).\(method) on \(path) at \(destination)"
        let message = try MessageRef.methodCall(
            destination: destination, path: path, interface: interface, method: method, operation: operation)
        try message.append(arguments, signature: signature, operation: operation)
        let reply = try await core.send(message, timeout: timeout, operation: operation).get()
        if reply.type == T2M_DBUS_MESSAGE_TYPE_ERROR {
            let text = (try? reply.read(operation: operation))?.first?.string ?? ""
            throw DBusError(.remote, text, name: reply.errorName, operation: operation)
        }
        return try reply.read(operation: "read the reply of \(operation)")
    }

    /// Emits a signal from this connection (for tests and simple services); it is queued, not awaited.
    public func emit(
        path: String, interface: String, member: String, arguments: [DBusValue] = [], signature: DBusSignature? = nil
    ) throws(DBusError) {
        let operation = "emit \(interface).\(member) from \(path)"
        let message = try MessageRef.signal(path: path, interface: interface, member: member, operation: operation)
        try message.append(arguments, signature: signature, operation: operation)
        guard isOpen else { throw DBusError(.closed, "the connection is not open", operation: operation) }
        core.submit(.send(message, call: nil, timeoutMS: 0))
    }

    /// Closes the connection: waiting calls fail with `.closed`, signal streams finish, and it returns once
    /// the connection is released.
    public func close() async {
        core.submit(.close)
        _ = await core.ended.wait()
    }
}
