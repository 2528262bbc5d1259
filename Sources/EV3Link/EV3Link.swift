public import EV3Protocol
public import Logging

/// One brick: its connection, kept up by `run(backoff:)`, and the flow control the firmware needs.
///
/// - One request in flight: every command goes out as "reply wanted" (`00`), even those that read nothing, so
///   the link always knows when the brick is free. (A `80` command is never answered, and a command that
///   needs a reply arriving while it still runs gets only the busy error.)
/// - Message counters 1…65535, wrapping and skipping 0. A request without a reply within the transport's
///   timeout fails; a reply that comes later, or carries a counter no request waits for, is dropped.
/// - A bounded queue (`EV3SendQueue`): motor set-points coalesce per port, stops jump the queue.
/// - Only batches built from `EV3Protocol`'s catalogue and system commands can be sent, and the catalogue
///   leaves out the opcodes that block the brick (OUTPUT_READY, SOUND_READY, the waits).
/// - Bluetooth requests are spaced by `options.minimumInterval` (50 ms).
/// - A brick that misses `maxMissedReplies` replies in a row, closes the connection or sends a stream that
///   loses its framing is reported `disconnected`; everything queued is failed or dropped, so a reconnect
///   never replays motion meant for the old connection.
public actor EV3Link {
    /// The brick's address.
    public nonisolated let endpoint: EV3Endpoint
    /// Timeouts, pacing and bounds.
    public nonisolated let options: EV3LinkOptions
    /// Connection changes and failures of queued motion, in order. Buffers the newest 256 when not read.
    public nonisolated let events: AsyncStream<EV3LinkEvent>
    let eventSink: AsyncStream<EV3LinkEvent>.Continuation
    let logger: Logger

    var queue: EV3SendQueue<PendingRequest>
    var counters = EV3MessageCounter()
    var session: Session?
    var inFlight: InFlight?
    var pumpWaiter: CheckedContinuation<Void, Never>?
    var missedInARow = 0
    var lastSent: ContinuousClock.Instant?
    var generations = 0
    /// Whether a connection ever got as far as the brick answering: the next one that does is a reconnect.
    var introducedBefore = false
    /// Whether `run(backoff:)` is going, so a second call cannot fight the first over the connection.
    var running = false
    /// When the last few requests went out, newest last (pacing is checked against these).
    var recentSends: [ContinuousClock.Instant] = []
    /// Replies dropped because no request waited for them: late ones, and unknown counters.
    public internal(set) var droppedReplies = 0

    /// Entries waiting in the queue, not counting the request in flight.
    var queuedCount: Int { queue.count }

    /// A link to the brick at `endpoint`, with the transport's default options unless given others.
    public init(endpoint: EV3Endpoint, options: EV3LinkOptions? = nil, logger: Logger) {
        self.endpoint = endpoint
        let options = options ?? .defaults(for: endpoint.transport)
        self.options = options
        self.logger = logger
        queue = EV3SendQueue(limit: options.queueLimit)
        (events, eventSink) = AsyncStream.makeStream(of: EV3LinkEvent.self, bufferingPolicy: .bufferingNewest(256))
    }

    /// Whether the brick is connected and has answered (requests are accepted).
    public var isConnected: Bool { session.map { $0.introduced && $0.endReason == nil } ?? false }

    /// Sends a batch as one direct command and returns the brick's reply, which may be an error reply (`04`);
    /// read results with `batch.read(_:from:)`.
    public func send(_ batch: EV3Batch) async throws(EV3LinkError) -> EV3DirectReply {
        try await send(batch, introducing: false)
    }

    /// `send(_:)`, also while the connection is still being introduced (for the link's own first reads).
    func send(_ batch: EV3Batch, introducing: Bool) async throws(EV3LinkError) -> EV3DirectReply {
        do {
            _ = try batch.command(counter: 1)
        } catch {
            throw .encoding(error)
        }
        guard case .direct(let reply) = try await enqueue(.direct(batch), introducing: introducing) else {
            throw .malformedReply("a system reply to a direct command")
        }
        return reply
    }

    /// Sends a system command (its counter is replaced by the link's) and returns the brick's reply.
    public func send(_ command: EV3SystemCommand) async throws(EV3LinkError) -> EV3SystemReply {
        guard case .system(let reply) = try await enqueue(.system(command)) else {
            throw .malformedReply("a direct reply to a system command")
        }
        return reply
    }

    /// Queues a motor set-point; one still waiting for the same port is replaced. Throws for values the brick
    /// does not take (nothing is queued) and when not connected. Failures after queueing come as
    /// `commandFailed` events.
    public func enqueueMotor(_ port: EV3OutputPort, _ command: EV3MotorCommand) throws(EV3LinkError) {
        guard isConnected else { throw .notConnected }
        do {
            _ = try command.instructions(for: port)
        } catch {
            throw .encoding(error)
        }
        queue.setMotor(port, command)
        wakePump()
    }

    /// Stops motors ahead of everything queued, dropping their waiting set-points; it goes out as soon as the
    /// request in flight is answered.
    public func stop(_ ports: EV3OutputPorts, brake: Bool = false) throws(EV3LinkError) {
        guard isConnected else { throw .notConnected }
        do {
            _ = try EV3Instruction.outputStop(ports, brake: brake)
        } catch {
            throw .encoding(error)
        }
        queue.stop(ports, brake: brake)
        wakePump()
    }

    /// Stops all four motors ahead of everything queued.
    public func stopAll(brake: Bool = false) throws(EV3LinkError) {
        try stop(.all, brake: brake)
    }

    private func enqueue(_ work: PendingRequest.Work, introducing: Bool = false) async throws(EV3LinkError) -> EV3Reply {
        let open = session.map { $0.endReason == nil && (introducing || $0.introduced) } ?? false
        guard open else { throw .notConnected }
        let result = await withCheckedContinuation { continuation in
            if queue.push(PendingRequest(work: work, reply: continuation)) {
                wakePump()
            } else {
                continuation.resume(returning: .failure(.queueFull(limit: queue.limit)))
            }
        }
        return try result.get()
    }
}

/// A request waiting in the queue, and the task waiting for its reply.
struct PendingRequest {
    enum Work: Sendable {
        case direct(EV3Batch)
        case system(EV3SystemCommand)
    }

    let work: Work
    let reply: CheckedContinuation<Result<EV3Reply, EV3LinkError>, Never>
}

/// The connection in use; a new one gets a new generation, so late calls about an old one are ignored.
struct Session {
    let generation: Int
    let channel: FrameChannel
    /// Set once the brick has answered the link's first reads; only then are requests from outside taken.
    var introduced = false
    /// Set once the connection is over.
    var endReason: EV3LinkError?
}
