import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// The connections the frontend has accepted, so that its shutdown can end those a client keeps open. Hummingbird
/// waits for every connection before its server returns, and one that never completes a request (a browser's
/// preconnect, a stalled or half-open client) would otherwise hold the daemon's exit for as long as the client
/// likes: such a connection sits before the upgrade check, where neither quiescing nor cancellation reaches it.
final class OpenConnections: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var grace: Duration?
    }

    private let state = Mutex(State())

    /// Enters an accepted connection until it closes; one accepted after `close(after:)` gets the same grace.
    func add(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let grace = state.withLock { state -> Duration? in
            state.channels[id] = channel
            return state.grace
        }
        channel.closeFuture.whenComplete { [self] _ in
            _ = state.withLock { $0.channels.removeValue(forKey: id) }
        }
        if let grace { Self.close(channel, after: grace) }
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
        channel.eventLoop.scheduleTask(in: TimeAmount(grace)) {
            // Input first: a connection still waiting for its first request then ends as one whose client went
            // away, which is no error; closing it outright fails the upgrade check, and Hummingbird logs that.
            channel.close(mode: .input, promise: nil)
            channel.close(promise: nil)
        }
    }
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
