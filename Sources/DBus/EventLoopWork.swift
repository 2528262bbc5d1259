import CDBus

/// The loop thread's handling of queued commands, of what the callbacks enqueued, and of the end.
extension EventLoop {
    /// Runs the queued commands in order; false once `close` is among them.
    func runCommands() -> Bool {
        let batch = core.commands.withLock { queue -> [ConnectionCore.Command] in
            defer { if queue != nil { queue = [] } }
            return queue ?? []
        }
        for command in batch {
            switch command {
            case .close: return false
            case .cancel(let id): cancel(id)
            case .send(let message, nil, _):
                if dbus_connection_send(connection, message.pointer, nil) == 0 {
                    core.logger.debug("D-Bus message not sent: out of memory")
                }
            case .send(let message, let id?, let timeoutMS): sendCall(message, id: id, timeoutMS: timeoutMS)
            }
        }
        return true
    }

    private func sendCall(_ message: MessageRef, id: UInt64, timeoutMS: Int32) {
        // Cancelled before it was sent: nothing to do.
        guard core.calls.withLock({ $0.entries[id] != nil }) else { return }
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(connection, message.pointer, &pending, timeoutMS) != 0, let pending else {
            // libdbus gives no pending call once the connection is gone.
            let connected = dbus_connection_get_is_connected(connection) != 0
            if connected {
                return fail(id, .noMemory, "cannot send")
            }
            return fail(id, .disconnected, "the bus closed the connection")
        }
        let box = Unmanaged.passRetained(ReplyBox(id: id, core: core)).toOpaque()
        let notifying = dbus_pending_call_set_notify(
            pending,
            { _, data in
                guard let data else { return }
                let box = Unmanaged<ReplyBox>.fromOpaque(data).takeUnretainedValue()
                box.core.receive(.reply(box.id))
            },
            box,
            { data in if let data { Unmanaged<ReplyBox>.fromOpaque(data).release() } })
        guard notifying != 0 else {
            Unmanaged<ReplyBox>.fromOpaque(box).release()
            dbus_pending_call_cancel(pending)
            dbus_pending_call_unref(pending)
            return fail(id, .noMemory, "cannot watch for the reply")
        }
        core.calls.withLock { $0.entries[id]?.pending = LoopPointer(raw: pending) }
    }

    private func fail(_ id: UInt64, _ code: DBusError.Code, _ message: String) {
        core.takeCall(id)?.fail(code, message)
    }

    private func cancel(_ id: UInt64) {
        guard let call = core.takeCall(id) else { return }
        if let pending = call.pending {
            dbus_pending_call_cancel(pending.raw)
            dbus_pending_call_unref(pending.raw)
        }
        call.fail(.cancelled, "the calling task was cancelled")
    }

    /// Handles what dispatch enqueued; true once the bus closed the connection.
    func processInbox() -> Bool {
        // Replies and the end only: signals never pass through here, so a dispatch leaves few entries (one reply,
        // or every waiting call failed at once when the bus goes away).
        let batch = core.inbox.withLock { inbox in
            defer { inbox = [] }
            return inbox
        }
        var disconnected = false
        for item in batch {
            switch item {
            case .reply(let id): complete(id)
            case .disconnected: disconnected = true
            }
        }
        return disconnected
    }

    private func complete(_ id: UInt64) {
        guard let call = core.takeCall(id) else { return }
        guard let pending = call.pending else { return call.fail(.disconnected, "no reply") }
        let reply = dbus_pending_call_steal_reply(pending.raw)
        dbus_pending_call_unref(pending.raw)
        guard let reply else { return call.fail(.disconnected, "no reply") }
        let message = MessageRef(taking: reply)
        // libdbus answers a call itself, with NoReply and no sender, when its timeout passes or the connection
        // drops; a NoReply from the bus daemon (the peer left) has a sender and stays a remote error.
        if message.type == T2M_DBUS_MESSAGE_TYPE_ERROR, message.sender == nil, message.errorName == DBUS_ERROR_NO_REPLY {
            let connected = dbus_connection_get_is_connected(connection) != 0
            guard connected else { return call.fail(.disconnected, "the bus closed the connection") }
            let error = DBusError(
                .timedOut, "no reply within the timeout", name: DBUS_ERROR_NO_REPLY, operation: call.operation)
            return call.continuation.resume(returning: .failure(error))
        }
        call.continuation.resume(returning: .success(message))
    }

    /// Fails every call still waiting, ends every stream, then closes and releases the connection.
    func teardown(_ reason: DBusError.Code) {
        let explanation = reason == .closed ? "the connection was closed" : "the bus closed the connection"
        let calls = core.calls.withLock { calls -> [ConnectionCore.Call] in
            calls.open = false
            calls.endReason = reason
            defer { calls.entries = [:] }
            return Array(calls.entries.values)
        }
        for call in calls {
            if let pending = call.pending {
                dbus_pending_call_cancel(pending.raw)
                dbus_pending_call_unref(pending.raw)
            }
            call.fail(reason, explanation)
        }
        core.finishSignals()
        core.commands.withLock { $0 = nil }
        core.inbox.withLock { $0 = [] }
        dbus_connection_remove_filter(connection, EventLoop.filter, Unmanaged.passUnretained(core).toOpaque())
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
        if reason == .disconnected {
            core.logger.info("D-Bus connection lost: the bus closed it")
        } else {
            core.logger.debug("D-Bus connection closed")
        }
        core.eventSink.yield(reason == .closed ? .closed : .disconnected)
        core.eventSink.finish()
        core.ended.set(reason)
    }
}
