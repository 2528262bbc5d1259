import CDBus

/// Signals, name owners and bus names: the bus daemon's side of a connection.
extension DBusConnection {
    /// Subscribes to the signals a rule matches. The rule is added on the bus daemon with a real `AddMatch`
    /// call before this returns, so a signal caused by anything the caller does next is delivered. A
    /// well-known `sender` follows that name's current owner. Ending the stream removes the rule; closing
    /// the connection finishes the stream.
    public func subscribe(
        _ rule: DBusMatchRule,
        bufferingPolicy: AsyncStream<DBusSignal>.Continuation.BufferingPolicy = .unbounded
    ) async throws(DBusError) -> AsyncStream<DBusSignal> {
        let (stream, continuation) = AsyncStream.makeStream(of: DBusSignal.self, bufferingPolicy: bufferingPolicy)
        let end = try await subscribe(rule, into: StreamSignalSink(continuation: continuation))
        continuation.onTermination = { _ in end() }
        return stream
    }

    /// Subscribes `sink` to the signals a rule matches: the loop thread hands each one to it directly, so the
    /// sink decides how much may wait (merge, bound). Returns what ends the subscription (removing the rule).
    public func subscribe(_ rule: DBusMatchRule, into sink: some DBusSignalSink) async throws(DBusError) -> @Sendable () -> Void {
        let text = try rule.text()
        let followed = rule.sender.flatMap { DBusMatchRule.isFixedSender($0) ? nil : $0 }
        let nameUse: UInt64? = if let followed { try await followOwner(of: followed, observer: nil) } else { nil }
        let core = core
        let release: @Sendable () -> Void = {
            if let followed, let nameUse { core.releaseName(followed, id: nameUse, removingMatchFor: true) }
        }
        guard let id = core.addSubscription(rule, sink: sink) else {
            release()
            throw DBusError(.closed, "the connection is not open", operation: "subscribe to \(text)")
        }
        do {
            try await busCall("AddMatch", [.string(text)])
        } catch {
            core.removeSubscription(id)
            release()
            throw error
        }
        return {
            core.removeSubscription(id)
            core.removeMatch(text)
            release()
        }
    }

    /// Follows a bus name: yields its current owner's unique name (nil while nobody owns it) first, then
    /// every change, from the bus daemon's NameOwnerChanged. Ending the stream stops following.
    public func watchNameOwner(_ name: String) async throws(DBusError) -> AsyncStream<String?> {
        try Validate.busName(name, "watch the owner of \(name)")
        let (stream, observer) = AsyncStream.makeStream(of: String?.self)
        let id = try await followOwner(of: name, observer: observer)
        let core = core
        observer.onTermination = { _ in core.releaseName(name, id: id, removingMatchFor: true) }
        return stream
    }

    /// The unique name owning `name` now, or nil when nobody owns it.
    public func nameOwner(_ name: String) async throws(DBusError) -> String? {
        do {
            return try await busCall("GetNameOwner", [.string(name)]).first?.string
        } catch where error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            return nil
        }
    }

    /// Asks the bus for a well-known name (without queueing); throws `.remote` when another connection has it.
    public func requestName(_ name: String) async throws(DBusError) {
        let operation = "request the name \(name)"
        try Validate.busName(name, operation)
        // Flag 4 is DBUS_NAME_FLAG_DO_NOT_QUEUE; replies 1 and 4 are "primary owner" and "already owner".
        let reply = try await busCall("RequestName", [.string(name), .uint32(4)]).first?.uint32
        guard reply == 1 || reply == 4 else {
            let answer = reply.map(String.init) ?? "none"
            throw DBusError(.remote, "the name is owned by another connection (reply \(answer))", operation: operation)
        }
    }

    /// Registers a name user, adds its NameOwnerChanged rule, then asks for the current owner: asked after the
    /// rule is in place, so a change after the answer always arrives as a signal.
    private func followOwner(
        of name: String, observer: AsyncStream<String?>.Continuation?
    ) async throws(DBusError) -> UInt64 {
        guard let id = core.retainName(name, observer: observer) else {
            throw DBusError(.closed, "the connection is not open", operation: "follow the owner of \(name)")
        }
        do {
            try await busCall("AddMatch", [.string(try DBusMatchRule.nameOwnerChanged(of: name).text())])
        } catch {
            core.releaseName(name, id: id, removingMatchFor: false)
            throw error
        }
        do {
            core.resolveOwner(name, owner: try await nameOwner(name))
        } catch {
            core.releaseName(name, id: id, removingMatchFor: true)
            throw error
        }
        return id
    }

    @discardableResult
    func busCall(_ method: String, _ arguments: [DBusValue]) async throws(DBusError) -> [DBusValue] {
        try await call(
            destination: DBusMatchRule.busName, path: "/org/freedesktop/DBus", interface: DBusMatchRule.busName,
            method: method, arguments: arguments)
    }
}

extension ConnectionCore {
    /// Removes a match rule without waiting for the answer (used from stream terminations).
    func removeMatch(_ text: String) {
        guard
            let message = try? MessageRef.methodCall(
                destination: DBusMatchRule.busName, path: "/org/freedesktop/DBus", interface: DBusMatchRule.busName,
                method: "RemoveMatch", operation: "remove match rule")
        else { return }
        dbus_message_set_no_reply(message.pointer, 1)
        guard (try? message.append([.string(text)], signature: "s", operation: "remove match rule")) != nil else { return }
        submit(.send(message, call: nil, timeoutMS: 0))
    }

    /// Stops following a name for one user and, when that user had added a rule, removes it.
    func releaseName(_ name: String, id: UInt64, removingMatchFor added: Bool) {
        releaseName(name, id: id)
        if added, let text = try? DBusMatchRule.nameOwnerChanged(of: name).text() { removeMatch(text) }
    }
}
