import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// The connections the frontend has accepted, so that neither a running frontend nor its shutdown waits on a
/// client that never sends a request. Hummingbird's idle timeout starts only once a request head has been read,
/// and a connection that never completes one (a browser's preconnect, a stalled or half-open client, one that
/// sends a byte now and then) sits before the upgrade check, where neither quiescing nor cancellation reaches
/// it: it would hold a descriptor for as long as the client likes, and hold the daemon's exit too.
final class OpenConnections: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        /// The connections whose first request head has not come yet, with the timer that closes them.
        var waiting: [ObjectIdentifier: Scheduled<Void>] = [:]
        var grace: Duration?
    }

    private let state = Mutex(State())
    /// How long a new connection may take to send its first request head.
    let requestTimeout: Duration
    private let logger: Logger

    /// Tracks connections; one that has sent no whole request head `requestTimeout` after it was accepted is closed.
    init(requestTimeout: Duration, logger: Logger) {
        self.requestTimeout = requestTimeout
        self.logger = logger
    }

    /// Enters an accepted connection until it closes; one accepted after `close(after:)` gets the same grace.
    func add(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let grace = state.withLock { state -> Duration? in
            state.channels[id] = channel
            // Scheduled under the lock, so the timer cannot look for its entry before it is there.
            state.waiting[id] = channel.eventLoop.scheduleTask(in: TimeAmount(requestTimeout)) { [self] in
                guard self.state.withLock({ $0.waiting.removeValue(forKey: id) }) != nil else { return }
                logger.debug(
                    "Web frontend connection closed: no request within the time allowed",
                    metadata: ["client": "\(channel.remoteAddress?.ipAddress ?? "?")"])
                Self.end(channel)
            }
            return state.grace
        }
        channel.closeFuture.whenComplete { [self] _ in
            let timer = state.withLock { state -> Scheduled<Void>? in
                state.channels.removeValue(forKey: id)
                return state.waiting.removeValue(forKey: id)
            }
            timer?.cancel()
        }
        if let grace { Self.close(channel, after: grace) }
    }

    /// A connection's first request head came: from now on Hummingbird's idle timeout (or the websocket's own
    /// checks) decide how long it stays.
    func requestArrived(on channel: any Channel) {
        state.withLock { $0.waiting.removeValue(forKey: ObjectIdentifier(channel)) }?.cancel()
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

    private static func end(_ channel: any Channel) {
        // Input first: a connection still waiting for its first request then ends as one whose client went away,
        // which is no error; closing it outright fails the upgrade check, and Hummingbird logs that.
        channel.close(mode: .input, promise: nil)
        channel.close(promise: nil)
    }
}

/// Tells `OpenConnections` that a connection's first request head came and was not an upgrade: Hummingbird adds
/// it, with its HTTP handlers, once it has read that head. It passes every read on as it came (NIO takes only
/// inbound or outbound handlers).
final class RequestArrival: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any
    private let connections: OpenConnections

    init(_ connections: OpenConnections) { self.connections = connections }

    func handlerAdded(context: ChannelHandlerContext) { connections.requestArrived(on: context.channel) }
}

/// A server child channel whose connections are entered in `OpenConnections` while they are open.
struct TrackedChildChannel<Base: ServerChildChannel>: ServerChildChannel {
    let base: Base
    let connections: OpenConnections

    /// Enters the connection, then sets it up as `base` does.
    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        connections.add(channel)
        return base.setup(channel: channel, logger: logger)
    }

    /// Serves the connection as `base` does.
    func handle(value: Base.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
