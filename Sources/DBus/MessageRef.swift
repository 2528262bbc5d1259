import CDBus

/// One reference to a libdbus message, released on deinit. It moves between threads (built by a caller,
/// sent by the loop thread; a reply stolen by the loop thread, read by the caller) but is never used by two
/// threads at once, and libdbus counts message references atomically.
final class MessageRef: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes over a reference the caller owns.
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { dbus_message_unref(pointer) }

    /// A method call, after checking every name so libdbus never sees an invalid one.
    static func methodCall(
        destination: String, path: String, interface: String, method: String, operation: String
    ) throws(DBusError) -> MessageRef {
        try Validate.busName(destination, operation)
        try Validate.path(path, operation)
        try Validate.interface(interface, operation)
        try Validate.member(method, operation)
        guard let pointer = dbus_message_new_method_call(destination, path, interface, method) else {
            throw DBusError(.noMemory, "cannot create the message", operation: operation)
        }
        return MessageRef(taking: pointer)
    }

    /// A signal, after checking its names.
    static func signal(path: String, interface: String, member: String, operation: String) throws(DBusError) -> MessageRef {
        try Validate.path(path, operation)
        try Validate.interface(interface, operation)
        try Validate.member(member, operation)
        guard let pointer = dbus_message_new_signal(path, interface, member) else {
            throw DBusError(.noMemory, "cannot create the message", operation: operation)
        }
        return MessageRef(taking: pointer)
    }

    /// One of the `T2M_DBUS_MESSAGE_TYPE_*` values.
    var type: Int32 { dbus_message_get_type(pointer) }
    /// The sender's unique name; nil for a reply libdbus made up itself (a timeout).
    var sender: String? { dbus_message_get_sender(pointer).map { String(cString: $0) } }
    /// The object path, for calls and signals.
    var path: String? { dbus_message_get_path(pointer).map { String(cString: $0) } }
    /// The error name of an error reply.
    var errorName: String? { dbus_message_get_error_name(pointer).map { String(cString: $0) } }

    /// Whether this is the given signal; compares in C to spare the loop thread string copies.
    func isSignal(interface: String, member: String) -> Bool {
        dbus_message_is_signal(pointer, interface, member) != 0
    }

    /// The first argument if it is a string, without reading the rest of the body (for `arg0` matching).
    var firstStringArgument: String? {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(pointer, &iter) != 0, dbus_message_iter_get_arg_type(&iter) == T2M_DBUS_TYPE_STRING
        else { return nil }
        var basic = DBusBasicValue()
        dbus_message_iter_get_basic(&iter, &basic)
        return basic.str.map { String(cString: $0) }
    }

    /// Appends arguments, typed by `signature` when given, else by each value's own signature.
    func append(_ values: [DBusValue], signature: DBusSignature?, operation: String) throws(DBusError) {
        do {
            try MessageWriter.append(values, signature: signature, to: pointer)
        } catch {
            throw error.during(operation)
        }
    }

    /// Reads the whole body.
    func read(operation: String) throws(DBusError) -> [DBusValue] {
        do {
            return try MessageReader.read(pointer)
        } catch {
            throw error.during(operation)
        }
    }
}

/// A libdbus pointer kept in Sendable state. Only the loop thread ever dereferences it.
struct LoopPointer: @unchecked Sendable, Hashable {
    let raw: OpaquePointer
}
