import CDBus
import Glibc
import Logging
import Synchronization
import Support

/// The state shared by the public connection, its loop thread and libdbus's callbacks. Other threads only
/// queue commands and ring the wakeup; the loop thread makes every libdbus call; callbacks only enqueue.
final class ConnectionCore: Sendable {
    /// Work for the loop thread.
    enum Command: Sendable {
        /// Sends a message; with a call id, as a method call whose reply completes that call.
        case send(MessageRef, call: UInt64?, timeoutMS: Int32)
        case cancel(UInt64)
        case close
    }

    /// What libdbus's callbacks hand to the loop thread, in the order dispatch produced it.
    enum Inbound: Sendable {
        case reply(UInt64)
        case disconnected
    }

    typealias Reply = Result<MessageRef, DBusError>

    struct Call {
        let continuation: CheckedContinuation<Reply, Never>
        /// Set by the loop once the call is sent.
        var pending: LoopPointer?
        let operation: String

        /// Resumes the caller with a failure of this call.
        func fail(_ code: DBusError.Code, _ message: String) {
            continuation.resume(returning: .failure(DBusError(code, message, operation: operation)))
        }
    }

    struct Calls {
        /// Cleared when the loop ends; no call is accepted after that.
        var open = true
        var endReason: DBusError.Code = .closed
        var nextID: UInt64 = 0
        var entries: [UInt64: Call] = [:]
    }

    let logger: Logger
    let wakeup: Wakeup
    /// Queued work; nil once the loop has ended, so later commands are dropped instead of piling up.
    let commands = Mutex<[Command]?>([])
    let inbox = Mutex<[Inbound]>([])
    let calls = Mutex(Calls())
    let router = Mutex(SignalRouter())
    /// Set when the loop has ended and everything is released: `.closed` or `.disconnected`.
    let ended = OnceValue<DBusError.Code>()
    let events: AsyncStream<DBusConnection.Event>
    let eventSink: AsyncStream<DBusConnection.Event>.Continuation

    init(logger: Logger) throws(DBusError) {
        self.logger = logger
        guard let wakeup = Wakeup() else {
            throw DBusError(.connectionFailed, String(cString: strerror(errno)), operation: "create the wakeup pipe")
        }
        self.wakeup = wakeup
        (events, eventSink) = AsyncStream.makeStream(of: DBusConnection.Event.self)
    }

    /// Queues work for the loop thread and wakes it.
    func submit(_ command: Command) {
        let queued = commands.withLock { queue in
            queue?.append(command)
            return queue != nil
        }
        if queued { wakeup.ring() }
    }

    /// Called by libdbus callbacks on the loop thread, which drains the inbox right after dispatching.
    func receive(_ inbound: Inbound) { inbox.withLock { $0.append(inbound) } }

    /// Sends a method call and waits for its reply without blocking a thread: the continuation is resumed by
    /// the loop thread (reply, timeout, close) or by cancellation of the calling task.
    func send(_ message: MessageRef, timeout: Duration, operation: String) async -> Reply {
        // Seconds are capped first so the multiplication cannot overflow; about 24 days or more is libdbus's
        // "no timeout".
        let seconds = min(max(timeout.components.seconds, 0), Int64(T2M_DBUS_TIMEOUT_INFINITE / 1000) + 1)
        let milliseconds = seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        let timeoutMS = Int32(min(max(milliseconds, 0), Int64(T2M_DBUS_TIMEOUT_INFINITE)))
        let id = calls.withLock { calls in
            defer { calls.nextID += 1 }
            return calls.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let refusal = calls.withLock { calls -> DBusError.Code? in
                    guard calls.open else { return calls.endReason }
                    calls.entries[id] = Call(continuation: continuation, pending: nil, operation: operation)
                    return nil
                }
                if let refusal {
                    let error = DBusError(refusal, "the connection is not open", operation: operation)
                    return continuation.resume(returning: .failure(error))
                }
                submit(.send(message, call: id, timeoutMS: timeoutMS))
                // A cancellation that came before the call was registered found nothing to cancel.
                if Task.isCancelled { submit(.cancel(id)) }
            }
        } onCancel: {
            submit(.cancel(id))
        }
    }

    /// Takes a call out of the table; only the loop thread does this, so each call is resumed exactly once.
    func takeCall(_ id: UInt64) -> Call? { calls.withLock { $0.entries.removeValue(forKey: id) } }

    /// Whether calls are still accepted.
    var isOpen: Bool { calls.withLock { $0.open } }
}

/// The user data of one pending call's notify callback: which call it completes.
final class ReplyBox: Sendable {
    let id: UInt64
    let core: ConnectionCore

    init(id: UInt64, core: ConnectionCore) {
        self.id = id
        self.core = core
    }
}
