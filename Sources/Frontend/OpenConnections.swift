import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes
import Synchronization

/// The connections the frontend has accepted, so that neither a running frontend nor its shutdown waits on a
/// client that never sends a request. Hummingbird's idle timeout starts only once a request head has been read,
/// and a connection that never completes one (a browser's preconnect, a stalled or half-open client, one that
/// sends a byte now and then) sits before the upgrade check, where neither quiescing nor cancellation reaches
/// it: it would hold a descriptor for as long as the client likes, and hold the daemon's exit too.
final class OpenConnections: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        /// The connections whose first request head has not come yet: the timer that closes them, and since when.
        var waiting: [ObjectIdentifier: (timer: Scheduled<Void>, since: ContinuousClock.Instant)] = [:]
        var grace: Duration?
        /// Connections refused (the limit was reached) since the last warning, and when that was.
        var refused = 0
        var refusedLogged: ContinuousClock.Instant?
        /// Refused connections still open while they get their answer (see `RefusedConnection`).
        var answering = 0
    }

    /// Whether a connection is served, or refused with or without an answer.
    enum Admission: Equatable {
        case admitted
        /// Refused for the limit; `answered` when it gets a 503 before it is closed.
        case refused(answered: Bool)
        /// From an address `allow_from` does not list; `answered` when it gets a 403 before it is closed.
        case forbidden(answered: Bool)
    }

    /// How many refused connections may get their 503 at once: each stays open a moment for it (at most
    /// `RefusedConnection.linger`), so a flood of connections past the limit holds a bounded number of
    /// descriptors; the rest are closed without an answer.
    static let answerLimit = 16

    private let state = Mutex(State())
    /// How long a new connection may take to send its first request head, and a request to be whole after it.
    let requestTimeout: Duration
    /// How many connections may be open at once: each holds a descriptor of the daemon, which it shares with the
    /// broker connection, D-Bus and the EV3 links.
    let limit: Int
    /// Whether a client's address is one `allow_from` lets in.
    private let allows: @Sendable (String?) -> Bool
    private let logger: Logger

    /// Tracks connections; one that has sent no whole request head `requestTimeout` after it was accepted is
    /// closed, and so is one accepted while `limit` others are open, or from an address `allows` refuses.
    init(requestTimeout: Duration, limit: Int, allows: @escaping @Sendable (String?) -> Bool = { _ in true }, logger: Logger) {
        self.requestTimeout = requestTimeout
        self.limit = limit
        self.allows = allows
        self.logger = logger
    }

    /// Enters an accepted connection until it closes; one accepted after `close(after:)` gets the same grace. When
    /// `limit` connections are open, the one that has waited longest for its first request head is closed to make
    /// room: a client that holds connections without asking anything cannot keep out one that asks (the watchdog's
    /// `healthz`). Refused when `limit` connections are open that have all sent a request, or forbidden when `allow_from` does not list its address,
    /// which then takes no place: the caller closes this one once it is set up, after a 503 or 403 if it is
    /// `answered` (then `refusalAnswered()` must follow once it has closed).
    func add(_ channel: any Channel) -> Admission {
        let id = ObjectIdentifier(channel)
        let allowed = allows(channel.remoteAddress?.ipAddress)
        let (admission, grace, refused, evicted) = state.withLock { state -> (Admission, Duration?, Int?, (any Channel)?) in
            guard allowed else {
                let answered = state.answering < Self.answerLimit
                if answered { state.answering += 1 }
                return (.forbidden(answered: answered), nil, nil, nil)
            }
            var evicted: (any Channel)?
            if state.channels.count >= limit, let oldest = state.waiting.min(by: { $0.value.since < $1.value.since }) {
                state.waiting.removeValue(forKey: oldest.key)
                oldest.value.timer.cancel()
                evicted = state.channels.removeValue(forKey: oldest.key)
            }
            guard state.channels.count < limit else {
                let answered = state.answering < Self.answerLimit
                if answered { state.answering += 1 }
                return (.refused(answered: answered), nil, Self.countRefusal(&state), evicted)
            }
            state.channels[id] = channel
            // Scheduled under the lock, so the timer cannot look for its entry before it is there.
            let timer = channel.eventLoop.scheduleTask(in: TimeAmount(requestTimeout)) { [self] in
                guard self.state.withLock({ $0.waiting.removeValue(forKey: id) }) != nil else { return }
                logger.debug(
                    "Web frontend connection closed: no request within the time allowed",
                    metadata: ["client": "\(channel.remoteAddress?.ipAddress ?? "?")"])
                Self.end(channel)
            }
            state.waiting[id] = (timer, ContinuousClock.now)
            return (.admitted, state.grace, nil, evicted)
        }
        if let evicted {
            logger.debug(
                "Web frontend connection closed to make room: no request yet", metadata: ["client": "\(evicted.remoteAddress?.ipAddress ?? "?")"])
            Self.end(evicted)
        }
        if let refused {
            logger.warning(
                "Web frontend connections refused: too many open at once", metadata: ["limit": "\(limit)", "refused": "\(refused)"])
        }
        guard admission == .admitted else { return admission }
        channel.closeFuture.whenComplete { [self] _ in
            let timer = state.withLock { state -> Scheduled<Void>? in
                state.channels.removeValue(forKey: id)
                return state.waiting.removeValue(forKey: id)?.timer
            }
            timer?.cancel()
        }
        if let grace { Self.close(channel, after: grace) }
        return .admitted
    }

    /// A refused connection that got its answer has closed.
    func refusalAnswered() {
        state.withLock { $0.answering -= 1 }
    }

    /// Counts a refusal; the refusals to warn of (at most once a minute, so a flood of connections does not flood
    /// the log too), or nil.
    private static func countRefusal(_ state: inout State) -> Int? {
        state.refused += 1
        let now = ContinuousClock.now
        if let last = state.refusedLogged, now - last < .seconds(60) { return nil }
        defer { state.refused = 0 }
        state.refusedLogged = now
        return state.refused
    }

    /// A connection's first request head came: from now on Hummingbird's idle timeout (or the websocket's own
    /// checks) decide how long it stays.
    func requestArrived(on channel: any Channel) {
        state.withLock { $0.waiting.removeValue(forKey: ObjectIdentifier(channel)) }?.timer.cancel()
    }

    /// Closes every connection still open `grace` from now: the pages' websockets and any response under way
    /// finish on their own first.
    func close(after grace: Duration) {
        let open = state.withLock { state -> [any Channel] in
            state.grace = grace
            return Array(state.channels.values)
        }
        for channel in open { Self.close(channel, after: grace) }
    }

    private static func close(_ channel: any Channel, after grace: Duration) {
        // A timer of the connection's own event loop: closing is that loop's work, and no task is left behind.
        channel.eventLoop.scheduleTask(in: TimeAmount(grace)) { end(channel) }
    }

    /// Closes a connection as one whose client went away.
    static func end(_ channel: any Channel) {
        // Input first: a connection still waiting for its first request then ends as one whose client went away,
        // which is no error; closing it outright fails the upgrade check, and Hummingbird logs that.
        channel.close(mode: .input, promise: nil)
        channel.close(promise: nil)
    }
}

/// Tells `OpenConnections` that a connection's first request head came and was not an upgrade: Hummingbird adds
/// it, with its HTTP handlers, once it has read that head. From then on it gives each request `requestTimeout`
/// from its head to its end: Hummingbird's idle timeout starts again with every read, so a body that trickles
/// in a byte at a time would hold the connection for as long as the client likes. It passes every part on.
final class RequestArrival: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    private let connections: OpenConnections
    /// Closes the connection unless the request under way ends first; used on the channel's event loop only.
    private var deadline: Scheduled<Void>?

    init(_ connections: OpenConnections) { self.connections = connections }

    func handlerAdded(context: ChannelHandlerContext) { connections.requestArrived(on: context.channel) }

    /// Also called when the connection closes: NIO removes every handler then.
    func handlerRemoved(context: ChannelHandlerContext) { deadline?.cancel() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            let channel = context.channel
            deadline?.cancel()
            deadline = context.eventLoop.scheduleTask(in: TimeAmount(connections.requestTimeout)) { OpenConnections.end(channel) }
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body: break
        }
        context.fireChannelRead(data)
    }
}

/// A server child channel whose connections are entered in `OpenConnections` while they are open.
struct TrackedChildChannel<Base: ServerChildChannel>: ServerChildChannel {
    let base: Base
    let connections: OpenConnections
    /// Adds to the pipeline `base` has set up (the `UpgradeGuard`).
    var configure: @Sendable (any Channel) -> Void = { _ in }

    /// Enters the connection, then sets it up as `base` does.
    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        let refusal: RefusedConnection?
        switch connections.add(channel) {
        case .admitted: refusal = nil
        case .refused(let answered): refusal = RefusedConnection(answer: RefusedConnection.busy, answering: answered ? connections : nil)
        case .forbidden(let answered):
            refusal = RefusedConnection(answer: RefusedConnection.forbidden, answering: answered ? connections : nil)
        }
        if let refusal {
            // Set up as usual and closed once active: a failed setup would reach the server's accept loop as an
            // error, and a channel not yet registered cannot close its input. First in the pipeline, so nothing
            // the client sends reaches the HTTP handlers.
            try? channel.pipeline.syncOperations.addHandler(refusal)
        }
        let configure = self.configure
        return base.setup(channel: channel, logger: logger).map { value in
            configure(channel)
            return value
        }
    }

    /// Serves the connection as `base` does.
    func handle(value: Base.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
