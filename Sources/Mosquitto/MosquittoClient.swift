public import BridgeCore
import CMosquitto
import FoundationEssentials
import Glibc
public import Logging
import Synchronization
import Support

/// An MQTT client on libmosquitto. The network loop runs on its own thread and hands every event to the
/// owner's `deliver` function right there (one hop, so it must only enqueue); publishers never block.
/// It keeps its subscriptions and every retained message it published, and restores both after each
/// reconnect, so a broker without persistence gets the latest state back.
public final class MosquittoClient: MQTTTransport {
    struct State {
        var connected = false
        var stopRequested = false
        var stopDeadline: ContinuousClock.Instant?
        var connectedSinceAttempt = false
        /// Whether the client was ever connected: a later connect is a reconnect.
        var connectedBefore = false
        var subscriptions: [String: Int] = [:]
        /// Topic → latest retained message, in first-publish order so the bridge state goes first.
        var retained: [String: MQTTMessage] = [:]
        var retainedOrder: [String] = []
        /// The final message's id once sent, and recently acknowledged ids (bounded) in case the ack came first.
        var finalMID: Int32?
        var acknowledged: [Int32] = []
        /// Unsubscribes sent at shutdown whose UNSUBACK has not arrived yet.
        var closingUnsubscribes: Set<Int32> = []
        /// UNSUBACKs that arrived before their ids were recorded above.
        var acknowledgedUnsubscribes: Set<Int32> = []
    }

    let handle: MosquittoHandle
    let options: MosquittoOptions
    let logger: Logger
    let state = Mutex(State())
    let box: CallbackBox
    /// Set when the final message was acknowledged by the broker.
    let finalAcknowledged = OnceValue<Void>()
    /// Set when the broker confirmed the shutdown's unsubscribes: nothing more is on its way in.
    let inflowStopped = OnceValue<Void>()
    /// Set when the network thread has ended (after flushing DISCONNECT, or giving up at the deadline).
    let threadEnded = OnceValue<Void>()
    let started = Mutex(false)

    private static let libraryReady: Bool = {
        mosquitto_lib_init()
        return true
    }()

    /// Creates a client; nothing connects until `run()`. `deliver` runs on the network thread: it must not block.
    public init(
        options: MosquittoOptions, logger: Logger, deliver: @escaping @Sendable (TransportEvent) -> Void
    ) throws(MosquittoError) {
        _ = Self.libraryReady
        let box = CallbackBox(backlogLimit: options.backlogLimit, deliver: deliver)
        let userdata = Unmanaged.passRetained(box).toOpaque()
        guard let pointer = mosquitto_new(options.clientID, true, userdata) else {
            Unmanaged<CallbackBox>.fromOpaque(userdata).release()
            throw MosquittoError(code: Int32(MOSQ_ERR_NOMEM.rawValue), operation: "create client")
        }
        self.handle = MosquittoHandle(pointer: pointer)
        self.box = box
        self.options = options
        self.logger = logger
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

    /// Runs the network thread until it ends after `shutdown()`. Cancelling the caller asks for a stop but
    /// still waits (bounded) for the DISCONNECT to be flushed, so the broker never publishes the will.
    public func run() async {
        guard startThread() else { return }
        // The loop itself gives up at the stop deadline, so this wait is bounded once a stop was asked for.
        await withTaskCancellationHandler {
            _ = await threadEnded.wait()
        } onCancel: {
            requestStop(within: .seconds(2))
        }
    }

    /// Starts the network thread and returns: for an owner that ends the client with `shutdown()`, which waits
    /// for the thread (bounded), so it needs no task of its own to run it.
    public func start() { _ = startThread() }

    /// Asks the network thread to end after flushing a DISCONNECT (bounded), without waiting: for an owner that
    /// cannot wait, such as a `deinit`.
    public func stop() { requestStop(within: .seconds(2)) }

    /// Starts the network thread once; false if it was started before.
    private func startThread() -> Bool {
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return false }
        DetachedThread.start(name: "mosquitto") { [self] in
            networkLoop()
            threadEnded.set(())
        }
        return true
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
            if rc != 0 {
                logger.warning(
                    "MQTT unsubscribe failed",
                    metadata: ["mqtt.topic": "\(filter)", "error": "\(MosquittoError(code: rc, operation: "unsubscribe"))"])
            }
        }
    }

    /// Whether the client is connected right now.
    public var isConnected: Bool { state.withLock { $0.connected } }

    /// Whether more than `options.backlogLimit` messages wait to be written or acknowledged.
    public var isBacklogged: Bool { box.unconfirmed.load(ordering: .relaxed) >= options.backlogLimit }

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
        box.sent()
        return mid
    }

    func subscribeNow(_ filter: String, qos: Int) {
        let rc = mosquitto_subscribe(handle.pointer, nil, filter, Int32(qos))
        if rc != 0 {
            logger.warning(
                "MQTT subscribe failed",
                metadata: ["mqtt.topic": "\(filter)", "error": "\(MosquittoError(code: rc, operation: "subscribe"))"])
        }
    }
}
