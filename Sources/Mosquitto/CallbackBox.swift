import BridgeCore
import CMosquitto
import Synchronization

/// What the connection-level callbacks leave for the network thread to act on after the current loop turn.
enum ControlEvent: Sendable {
    case connect(Int32)
    case disconnect(Int32)
    case published(Int32)
    case unsubscribed(Int32)
    /// A warning or error the library logged (e.g. OpenSSL's reason for a failed handshake).
    case log(String)
}

/// The user-data object given to libmosquitto. The C callbacks run on the network thread and only enqueue:
/// messages go straight to the owner's bounded queue, connection events to `control` for the loop to drain.
final class CallbackBox: Sendable {
    let deliver: @Sendable (TransportEvent) -> Void
    let control = Mutex<[ControlEvent]>([])
    /// Messages handed to libmosquitto and not yet written (QoS 0) or acknowledged (QoS 1 and 2).
    let unconfirmed = Atomic<Int>(0)
    /// From how many unconfirmed messages the client is backlogged.
    let backlogLimit: Int
    /// Set when the count reached `backlogLimit`; cleared, with `.caughtUp` delivered, once it is down to half.
    let behind = Atomic<Bool>(false)

    init(backlogLimit: Int, deliver: @escaping @Sendable (TransportEvent) -> Void) {
        self.backlogLimit = backlogLimit
        self.deliver = deliver
    }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> CallbackBox? {
        guard let pointer else { return nil }
        return Unmanaged<CallbackBox>.fromOpaque(pointer).takeUnretainedValue()
    }

    func enqueue(_ event: ControlEvent) { control.withLock { $0.append(event) } }

    /// One more message was handed to libmosquitto.
    func sent() {
        if unconfirmed.add(1, ordering: .relaxed).newValue >= backlogLimit { behind.store(true, ordering: .relaxed) }
    }

    /// One message was written or acknowledged. The count restarts at each connect, so an acknowledgement
    /// of a message sent before it must not take the count below zero. Half-way down from a backlog, the owner
    /// hears that it is over (half, so a client hovering at the limit does not send it for every message).
    func confirmed() {
        var current = unconfirmed.load(ordering: .relaxed)
        while current > 0 {
            let (exchanged, original) = unconfirmed.compareExchange(
                expected: current, desired: current - 1, ordering: .relaxed)
            if exchanged {
                if current - 1 <= backlogLimit / 2 { caughtUp() }
                return
            }
            current = original
        }
    }

    /// The count restarts (a connect, or a lost connection): nothing is outstanding.
    func restartCount() {
        unconfirmed.store(0, ordering: .relaxed)
        caughtUp()
    }

    private func caughtUp() {
        // Looked at first: every confirmation below half comes here, and a plain load costs the cache line nothing.
        if behind.load(ordering: .relaxed), behind.exchange(false, ordering: .relaxed) { deliver(.caughtUp) }
    }

    /// Takes the connection events enqueued so far, oldest first.
    func drainControl() -> [ControlEvent] {
        control.withLock { events in
            defer { events.removeAll(keepingCapacity: true) }
            return events
        }
    }

    /// Installs the callbacks; each one only enqueues.
    static func install(on handle: OpaquePointer) {
        mosquitto_connect_callback_set(handle) { _, userdata, rc in CallbackBox.from(userdata)?.enqueue(.connect(rc)) }
        mosquitto_disconnect_callback_set(handle) { _, userdata, rc in
            CallbackBox.from(userdata)?.enqueue(.disconnect(rc))
        }
        mosquitto_publish_callback_set(handle) { _, userdata, mid in
            guard let box = CallbackBox.from(userdata) else { return }
            box.confirmed()
            box.enqueue(.published(mid))
        }
        mosquitto_unsubscribe_callback_set(handle) { _, userdata, mid in
            CallbackBox.from(userdata)?.enqueue(.unsubscribed(mid))
        }
        mosquitto_log_callback_set(handle) { _, userdata, level, text in
            guard level & Int32(MOSQ_LOG_ERR | MOSQ_LOG_WARNING) != 0, let text else { return }
            CallbackBox.from(userdata)?.enqueue(.log(String(cString: text)))
        }
        mosquitto_message_callback_set(handle) { _, userdata, message in
            guard let box = CallbackBox.from(userdata), let message = message?.pointee, let topic = message.topic else {
                return
            }
            var payload: [UInt8] = []
            if let bytes = message.payload, message.payloadlen > 0 {
                payload = Array(UnsafeRawBufferPointer(start: bytes, count: Int(message.payloadlen)))
            }
            box.deliver(.message(InboundMessage(topic: String(cString: topic), payload: payload, retained: message.retain)))
        }
    }
}

/// The libmosquitto handle, shared between the network thread and publishers; libmosquitto locks internally.
struct MosquittoHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
