import CMosquitto

/// What the C callbacks hand over; they run on the network thread and only enqueue these.
enum RawEvent: Sendable {
    case connect(Int32)
    case disconnect(Int32)
    case message(topic: String, payload: [UInt8], retained: Bool)
    case published(Int32)
    /// A warning or error the library logged (e.g. OpenSSL's reason for a failed handshake).
    case log(String)
    case threadExited
}

/// The user-data object given to libmosquitto: it holds nothing but the queue into Swift.
final class CallbackBox: Sendable {
    let continuation: AsyncStream<RawEvent>.Continuation

    init(continuation: AsyncStream<RawEvent>.Continuation) { self.continuation = continuation }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> CallbackBox? {
        guard let pointer else { return nil }
        return Unmanaged<CallbackBox>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Installs the callbacks; each one only yields an event.
    static func install(on handle: OpaquePointer) {
        mosquitto_connect_callback_set(handle) { _, userdata, rc in
            CallbackBox.from(userdata)?.continuation.yield(.connect(rc))
        }
        mosquitto_disconnect_callback_set(handle) { _, userdata, rc in
            CallbackBox.from(userdata)?.continuation.yield(.disconnect(rc))
        }
        mosquitto_publish_callback_set(handle) { _, userdata, mid in
            CallbackBox.from(userdata)?.continuation.yield(.published(mid))
        }
        mosquitto_log_callback_set(handle) { _, userdata, level, text in
            guard level & Int32(MOSQ_LOG_ERR | MOSQ_LOG_WARNING) != 0, let text else { return }
            CallbackBox.from(userdata)?.continuation.yield(.log(String(cString: text)))
        }
        mosquitto_message_callback_set(handle) { _, userdata, message in
            guard let box = CallbackBox.from(userdata), let message = message?.pointee, let topic = message.topic else {
                return
            }
            var payload: [UInt8] = []
            if let bytes = message.payload, message.payloadlen > 0 {
                payload = Array(UnsafeRawBufferPointer(start: bytes, count: Int(message.payloadlen)))
            }
            box.continuation.yield(.message(topic: String(cString: topic), payload: payload, retained: message.retain))
        }
    }
}

/// The libmosquitto handle, shared between the network thread and publishers; libmosquitto locks internally.
struct MosquittoHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
