/// Which signals a subscription receives: every component left nil matches anything.
public struct DBusMatchRule: Sendable, Hashable {
    /// A unique (`:1.42`) or well-known (`org.bluez`) bus name; a well-known name follows its current owner.
    public var sender: String?
    /// The signal's interface.
    public var interface: String?
    /// The signal's name.
    public var member: String?
    /// Exactly this object path.
    public var path: String?
    /// This object path or any below it (`/org/bluez` matches `/org/bluez/hci0/dev_…`).
    public var pathNamespace: String?
    /// The first argument, when it is a string equal to this.
    public var arg0: String?

    /// Creates a rule.
    public init(
        sender: String? = nil, interface: String? = nil, member: String? = nil, path: String? = nil,
        pathNamespace: String? = nil, arg0: String? = nil
    ) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.arg0 = arg0
    }

    /// The bus daemon's name, which is also the sender of the signals it emits.
    public static let busName = "org.freedesktop.DBus"

    /// The bus daemon's `NameOwnerChanged`, for one name or for all.
    public static func nameOwnerChanged(of name: String? = nil) -> DBusMatchRule {
        DBusMatchRule(
            sender: busName, interface: busName, member: "NameOwnerChanged", path: "/org/freedesktop/DBus", arg0: name)
    }

    /// The rule in the bus daemon's syntax, after checking every component (invalid ones are an `.invalidArgument`).
    public func text() throws(DBusError) -> String {
        let operation = "build match rule"
        if let sender { try Validate.busName(sender, operation) }
        if let interface { try Validate.interface(interface, operation) }
        if let member { try Validate.member(member, operation) }
        if let path { try Validate.path(path, operation) }
        if let pathNamespace { try Validate.path(pathNamespace, operation) }
        if let arg0 { try Validate.string(arg0, operation) }
        guard path == nil || pathNamespace == nil else {
            throw DBusError(.invalidArgument, "path and path_namespace cannot both be set", operation: operation)
        }
        let components: [(String, String?)] = [
            ("sender", sender), ("interface", interface), ("member", member), ("path", path),
            ("path_namespace", pathNamespace), ("arg0", arg0),
        ]
        return (["type='signal'"] + components.compactMap { key, value in value.map { "\(key)=\(Self.quote($0))" } })
            .joined(separator: ",")
    }

    /// Quotes a value; the syntax has no escapes inside quotes, so an apostrophe closes the quote, appears
    /// escaped, and reopens it.
    static func quote(_ value: String) -> String {
        "'" + value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// Whether the sender names a single connection rather than a name that can change hands.
    static func isFixedSender(_ name: String) -> Bool { name.hasPrefix(":") || name == busName }

    /// Whether a received signal matches; `owner` resolves a well-known sender to its current unique name.
    func matches(_ header: DBusSignalHeader, arg0 firstString: () -> String?, owner: (String) -> String?) -> Bool {
        if let interface, interface != header.interface { return false }
        if let member, member != header.member { return false }
        if let path, path != header.path { return false }
        if let pathNamespace, !Self.path(header.path, isIn: pathNamespace) { return false }
        if let sender {
            let expected = Self.isFixedSender(sender) ? sender : owner(sender)
            guard let expected, expected == header.sender else { return false }
        }
        if let arg0, arg0 != firstString() { return false }
        return true
    }

    static func path(_ path: String, isIn namespace: String) -> Bool {
        if namespace == "/" || path == namespace { return true }
        // Compared as bytes, with no `namespace + "/"` made for every signal.
        let bytes = path.utf8
        guard bytes.starts(with: namespace.utf8) else { return false }
        return bytes.dropFirst(namespace.utf8.count).first == UInt8(ascii: "/")
    }
}

/// The header fields of a received signal that rules look at.
public struct DBusSignalHeader: Sendable {
    /// The emitter's unique bus name.
    public let sender: String
    /// The emitting object.
    public let path: String
    /// The signal's interface.
    public let interface: String
    /// The signal's name.
    public let member: String
}
