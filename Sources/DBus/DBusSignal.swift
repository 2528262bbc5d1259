/// A received signal with its typed body.
public struct DBusSignal: Sendable, Hashable {
    /// The emitter's unique bus name (`:1.42`), or `org.freedesktop.DBus` for the bus daemon.
    public let sender: String
    /// The emitting object.
    public let path: String
    /// The signal's interface.
    public let interface: String
    /// The signal's name.
    public let member: String
    /// The arguments.
    public let body: [DBusValue]

    /// Creates a signal value.
    public init(sender: String, path: String, interface: String, member: String, body: [DBusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.body = body
    }
}
