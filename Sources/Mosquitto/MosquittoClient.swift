import CMosquitto
import Foundation
public import Logging
import Synchronization

/// An MQTT client on libmosquitto. The network loop runs on its own thread; callers never block.
/// It keeps its subscriptions and every retained message it published, and restores both after
/// each reconnect, so a broker without persistence gets the latest state back.
public final class MosquittoClient: Sendable {
    struct State {
        var connected = false
        var stopRequested = false
        var connectedSinceAttempt = false
        var subscriptions: [String: Int] = [:]
        /// Topic → latest retained message, in first-publish order so the bridge state goes first.
        var retained: [String: MQTTMessage] = [:]
        var retainedOrder: [String] = []
        /// Recently acknowledged message ids, bounded: only the final message's acknowledgement is ever awaited.
        var acknowledged: [Int32] = []
    }

    let handle: MosquittoHandle
    let options: MosquittoOptions
    let logger: Logger
    let state = Mutex(State())
    private let box: CallbackBox
    private let rawEvents: AsyncStream<RawEvent>
    private let onEvent: @Sendable (MQTTClientEvent) -> Void

    private static let libraryReady: Bool = {
        mosquitto_lib_init()
        return true
    }()

    /// Creates a client; nothing connects until `run()`.
    public init(
        options: MosquittoOptions, logger: Logger, onEvent: @escaping @Sendable (MQTTClientEvent) -> Void
    ) throws(MosquittoError) {
        _ = Self.libraryReady
        let (stream, continuation) = AsyncStream.makeStream(of: RawEvent.self)
        let box = CallbackBox(continuation: continuation)
        let userdata = Unmanaged.passRetained(box).toOpaque()
        guard let pointer = mosquitto_new(options.clientID, true, userdata) else {
            Unmanaged<CallbackBox>.fromOpaque(userdata).release()
            throw MosquittoError(code: Int32(MOSQ_ERR_NOMEM.rawValue), operation: "create client")
        }
        self.handle = MosquittoHandle(pointer: pointer)
        self.box = box
        self.rawEvents = stream
        self.options = options
        self.logger = logger
        self.onEvent = onEvent
        CallbackBox.install(on: pointer)
        do {
            try configure()
        } catch {
            destroy()
            throw error
        }
    }

    deinit { destroy() }

    private func destroy() {
        mosquitto_destroy(handle.pointer)
        Unmanaged.passUnretained(box).release()
    }

    /// Runs the network thread and handles its events until `shutdown()` completes or the task is cancelled.
    public func run() async {
        let thread = Thread { [self] in networkLoop() }
        thread.name = "mosquitto"
        thread.start()
        await withTaskCancellationHandler {
            for await event in rawEvents {
                if case .threadExited = event { break }
                process(event)
            }
        } onCancel: {
            requestStop()
        }
    }

    /// Publishes the final message (waiting for the broker's acknowledgement), then disconnects.
    public func shutdown(timeout: Duration = .seconds(3)) async {
        if let final = options.finalMessage, state.withLock({ $0.connected }) {
            if let mid = send(final) {
                let deadline = ContinuousClock.now + timeout
                while ContinuousClock.now < deadline, !state.withLock({ $0.acknowledged.contains(mid) }) {
                    try? await Task.sleep(for: .milliseconds(5))
                }
            }
        }
        requestStop()
    }

    /// Publishes now if connected. Retained messages are also remembered (an empty one forgets the
    /// topic) and re-sent after a reconnect; other messages are dropped while disconnected.
    public func publish(_ topic: String, payload: [UInt8], qos: Int, retain: Bool) {
        let message = MQTTMessage(topic: topic, payload: payload, qos: qos, retain: retain)
        let connected = state.withLock { state in
            if retain {
                if payload.isEmpty {
                    if state.retained.removeValue(forKey: topic) != nil { state.retainedOrder.removeAll { $0 == topic } }
                } else {
                    if state.retained.updateValue(message, forKey: topic) == nil { state.retainedOrder.append(topic) }
                }
            }
            return state.connected
        }
        if connected { send(message) }
    }

    /// Subscribes now if connected and after every reconnect.
    public func subscribe(_ filter: String, qos: Int) {
        let connected = state.withLock { state in
            state.subscriptions[filter] = qos
            return state.connected
        }
        if connected { subscribeNow(filter, qos: qos) }
    }

    /// Drops a subscription.
    public func unsubscribe(_ filter: String) {
        let connected = state.withLock { $0.subscriptions.removeValue(forKey: filter) != nil && $0.connected }
        if connected {
            let rc = mosquitto_unsubscribe(handle.pointer, nil, filter)
            if rc != 0 { logger.warning("MQTT unsubscribe failed", metadata: ["mqtt.topic": "\(filter)", "error": "\(MosquittoError(code: rc, operation: "unsubscribe"))"]) }
        }
    }

    /// Whether the client is connected right now.
    public var isConnected: Bool { state.withLock { $0.connected } }

    /// How many retained messages the client would restore after a reconnect.
    public var retainedCount: Int { state.withLock { $0.retained.count } }

    @discardableResult
    func send(_ message: MQTTMessage) -> Int32? {
        var mid: Int32 = 0
        let rc = message.payload.withUnsafeBytes { bytes in
            mosquitto_publish(
                handle.pointer, &mid, message.topic, Int32(bytes.count), bytes.baseAddress, Int32(message.qos),
                message.retain)
        }
        guard rc == 0 else {
            logger.debug(
                "MQTT publish not sent",
                metadata: ["mqtt.topic": "\(message.topic)", "error": "\(MosquittoError(code: rc, operation: "publish"))"])
            return nil
        }
        return mid
    }

    private func subscribeNow(_ filter: String, qos: Int) {
        let rc = mosquitto_subscribe(handle.pointer, nil, filter, Int32(qos))
        if rc != 0 {
            logger.warning(
                "MQTT subscribe failed",
                metadata: ["mqtt.topic": "\(filter)", "error": "\(MosquittoError(code: rc, operation: "subscribe"))"])
        }
    }

    private func process(_ event: RawEvent) {
        switch event {
        case .connect(let rc):
            guard rc == 0 else {
                let reason = MosquittoError.connackReason(rc, version: options.protocolVersion)
                logger.error("MQTT broker refused the connection", metadata: ["reason": "\(reason)"])
                return
            }
            let (subscriptions, retained) = state.withLock { state in
                state.connected = true
                state.connectedSinceAttempt = true
                return (state.subscriptions, state.retainedOrder.compactMap { state.retained[$0] })
            }
            logger.info("MQTT connected", metadata: ["broker": "\(options.host):\(options.port)", "restored": "\(retained.count)"])
            for (filter, qos) in subscriptions { subscribeNow(filter, qos: qos) }
            for message in retained { send(message) }
            onEvent(.connected)
        case .disconnect(let rc):
            let wasConnected = state.withLock { state in
                defer { state.connected = false }
                return state.connected
            }
            guard wasConnected else { return }
            let reason = rc == 0 ? "disconnected" : MosquittoError(code: rc, operation: "connection lost").description
            onEvent(.disconnected(reason: reason))
        case .message(let topic, let payload, let retained):
            onEvent(.message(topic: topic, payload: payload, retained: retained))
        case .published(let mid):
            if options.finalMessage != nil {
                state.withLock { state in
                    state.acknowledged.append(mid)
                    if state.acknowledged.count > 128 { state.acknowledged.removeFirst(64) }
                }
            }
        case .log(let text):
            logger.warning("libmosquitto: \(text)")
        case .threadExited:
            break
        }
    }

    func finishEvents() {
        box.continuation.yield(.threadExited)
    }
}
