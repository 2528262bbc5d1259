import CDBus
import Support

/// The connection's own thread: a poll loop over the sockets and timers libdbus hands out through its
/// watch and timeout functions, plus a wakeup pipe.
///
/// Why this design: a thread parked in `dbus_connection_read_write_dispatch` holds libdbus's I/O path, so a
/// message sent from another thread waits until that poll times out (measured: up to the full dispatch
/// timeout; forever with -1). Here libdbus never blocks: this loop polls, and work from other threads is
/// queued and rings the pipe, so it is picked up at once. Every libdbus call on the connection is also made
/// on this thread: a pending call's notify function is set before dispatch can complete it (libdbus does not
/// call a notify that is set after completion), and closing never races a send.
final class EventLoop {
    let core: ConnectionCore
    let connection: OpaquePointer
    let tables: WatchTables
    /// The last signal's interface and member text, reused by the next (loop thread only).
    var names = SignalNames()

    private init(core: ConnectionCore, connection: OpaquePointer, tables: WatchTables) {
        self.core = core
        self.connection = connection
        self.tables = tables
    }

    /// Sees what `dispatch` hands to libdbus: replies and method calls, which go on to libdbus (pending calls,
    /// the default error), and the Disconnected signal libdbus makes up when the bus goes away, which it ends.
    /// Other signals never get here: the loop takes them off the queue itself (see `dispatch`).
    static let filter: DBusHandleMessageFunction = { _, message, data in
        guard let message, let data, dbus_message_is_signal(message, DBUS_INTERFACE_LOCAL, "Disconnected") != 0 else {
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        Unmanaged<ConnectionCore>.fromOpaque(data).takeUnretainedValue().receive(.disconnected)
        return DBUS_HANDLER_RESULT_HANDLED
    }

    /// Thread entry: opens and registers a private connection, reports the unique name (or the failure)
    /// through `opened`, then loops until closed or disconnected.
    static func run(address: String, core: ConnectionCore, opened: OnceValue<Result<String, DBusError>>) {
        let operation = "connect to \(address)"
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let connection = dbus_connection_open_private(address, &error) else {
            return opened.set(.failure(failure(error, operation)))
        }
        // dbus_bus_get* would make a lost bus _exit() the process; a daemon must report it instead.
        dbus_connection_set_exit_on_disconnect(connection, 0)
        guard dbus_bus_register(connection, &error) != 0 else {
            abandon(connection)
            return opened.set(.failure(failure(error, operation)))
        }
        guard let name = dbus_bus_get_unique_name(connection), addFilter(for: core, on: connection),
            let tables = WatchTables.install(on: connection)
        else {
            abandon(connection)
            return opened.set(.failure(DBusError(.noMemory, "cannot set up the connection", operation: operation)))
        }
        opened.set(.success(String(cString: name)))
        EventLoop(core: core, connection: connection, tables: tables).loop()
    }

    /// Installs `filter` with the core as its user data, retained until libdbus frees the filter.
    private static func addFilter(for core: ConnectionCore, on connection: OpaquePointer) -> Bool {
        let data = Unmanaged.passRetained(core).toOpaque()
        let added = dbus_connection_add_filter(
            connection, filter, data, { data in if let data { Unmanaged<ConnectionCore>.fromOpaque(data).release() } })
        if added == 0 { Unmanaged<ConnectionCore>.fromOpaque(data).release() }
        return added != 0
    }

    /// A private connection must be closed before its last reference goes.
    private static func abandon(_ connection: OpaquePointer) {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    private static func failure(_ error: CDBus.DBusError, _ operation: String) -> DBusError {
        let name = error.name.map { String(cString: $0) }
        let message = error.message.map { String(cString: $0) } ?? "unknown failure"
        return DBusError(.connectionFailed, message, name: name, operation: operation)
    }

    private func loop() {
        var reason = DBusError.Code.closed
        while true {
            guard runCommands() else { break }
            // The inbox is looked at once more after the batch, in case a callback outside dispatch filled it.
            if dispatch() || processInbox() {
                reason = .disconnected
                break
            }
            waitForActivity()
        }
        teardown(reason)
    }

    /// Handles a bounded batch of what came in, so a flood of signals cannot starve queued commands; true once
    /// the bus closed the connection.
    ///
    /// A signal from the bus is taken off the queue and routed here, as a bare receiver would: libdbus's
    /// dispatch would copy its filter list and take its locks again for every one of an advert burst's
    /// signals, only to hand each to the one filter. Anything else (a reply, a method call, the Disconnected
    /// signal) goes through libdbus's dispatch, and what that enqueued is handled at once, so replies and
    /// signals are seen in the order they came.
    private func dispatch() -> Bool {
        var budget = 256
        while budget > 0, let message = dbus_connection_borrow_message(connection) {
            budget -= 1
            if dbus_message_get_type(message) == T2M_DBUS_MESSAGE_TYPE_SIGNAL,
                dbus_message_is_signal(message, DBUS_INTERFACE_LOCAL, "Disconnected") == 0
            {
                dbus_connection_steal_borrowed_message(connection, message)
                core.route(MessageRef(taking: message), names: &names)
                continue
            }
            dbus_connection_return_message(connection, message)
            dbus_connection_dispatch(connection)
            if processInbox() { return true }
        }
        return false
    }
}
