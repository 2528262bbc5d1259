import FoundationEssentials
import Glibc
import Logging
import Synchronization
import Support

/// One connection to a brick: a descriptor owned by its own thread, frames in both directions.
///
/// Why a thread and not NIO: every transport here is a plain descriptor (a TCP socket, an RFCOMM socket, a
/// tty, a hidraw device), and two of them do not fit NIO's channels: NIO cannot create `AF_BLUETOOTH` sockets
/// nor name their peers, and its pipe channels gather queued writes into one `writev`, which on a descriptor
/// that keeps report boundaries would merge two USB reports into one. A brick takes one request at a time, so
/// a thread per brick (a few per bridge) that polls its descriptor and a wakeup pipe costs nothing, keeps every
/// blocking call (name lookup, connect, the WiFi unlock, tty setup) off the cooperative pool, and treats all
/// four transports alike.
final class FrameChannel: Sendable {
    /// What the thread reports.
    enum Inbound: Sendable {
        /// A whole frame from the brick, length field included.
        case frame([UInt8])
        /// The connection ended; nothing follows.
        case closed(EV3LinkError)
    }

    /// What the thread needs at open and then keeps.
    struct Opened {
        /// The connected descriptor, owned by the channel from now on.
        let fd: Int32
        /// Bytes that arrived with the handshake and belong to the first frames.
        var leftover: [UInt8] = []
    }

    /// Frames from the brick, then one `.closed`.
    let inbound: AsyncStream<Inbound>
    let continuation: AsyncStream<Inbound>.Continuation
    let wakeup: Wakeup
    let logger: Logger
    private let shared = Mutex(Shared())

    private struct Shared {
        var outbox: [[UInt8]] = []
        var closing = false
    }

    private init(wakeup: Wakeup, logger: Logger) {
        // A brick sends one reply per request; a peer that floods frames loses the newest past this bound
        // (its requests then time out) instead of growing the daemon's memory. The stream's end still arrives.
        (inbound, continuation) = AsyncStream.makeStream(of: Inbound.self, bufferingPolicy: .bufferingOldest(1024))
        self.wakeup = wakeup
        self.logger = logger
    }

    /// Starts the connection's thread, which runs `opener` (connect, handshake: blocking calls, bounded by the
    /// context's deadline) and then moves frames. Returns once the connection is up; cancelling the waiting
    /// task aborts the opener.
    static func open(
        label: String, framing: Framing, timeout: Duration, logger: Logger,
        opener: @escaping @Sendable (OpenContext) throws(EV3LinkError) -> Opened
    ) async throws(EV3LinkError) -> FrameChannel {
        let channel = FrameChannel(wakeup: try Posix.wakeup(), logger: logger)
        let result = OnceValue<Result<Void, EV3LinkError>>()
        let deadline = ContinuousClock.now + timeout
        DetachedThread.start(name: "ev3 \(label)") {
            let context = OpenContext(channel: channel, deadline: deadline, what: label)
            let opened: Opened
            do throws(EV3LinkError) {
                opened = try opener(context)
            } catch {
                channel.continuation.finish()
                return result.set(.failure(error))
            }
            result.set(.success(()))
            channel.run(opened, framing: framing)
        }
        let outcome = await withTaskCancellationHandler {
            await result.wait()
        } onCancel: {
            channel.close()
        }
        try outcome.get()
        return channel
    }

    /// Queues a frame for the brick; written in order by the thread.
    func send(_ frame: [UInt8]) {
        shared.withLock { $0.outbox.append(frame) }
        wakeup.ring()
    }

    /// Ends the connection; the thread closes the descriptor and reports `.closed(.closed)`.
    func close() {
        shared.withLock { $0.closing = true }
        wakeup.ring()
    }

    /// Whether `close()` was called.
    var isClosing: Bool { shared.withLock { $0.closing } }

    /// The frames queued since the last call, or nil once closing.
    func takeOutbox() -> [[UInt8]]? {
        shared.withLock { shared in
            if shared.closing { return nil }
            defer { shared.outbox.removeAll() }
            return shared.outbox
        }
    }
}

/// What an opener may use on the connection's thread: waits that end at the deadline or when the channel
/// is closed.
struct OpenContext {
    let channel: FrameChannel
    let deadline: ContinuousClock.Instant
    /// The endpoint, for messages.
    let what: String

    /// Blocks until `fd` is ready for `events`; throws at the deadline or when the channel is closed.
    func wait(for fd: Int32, events: Int16) throws(EV3LinkError) {
        while true {
            if channel.isClosing { throw .closed }
            let timeout = Posix.timeout(until: deadline)
            if timeout == 0 { throw .connectTimedOut(what) }
            var fds = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: channel.wakeup.readFD, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, timeout)
            if ready < 0, errno != EINTR { throw Posix.error("poll", errno) }
            if fds[1].revents != 0 { channel.wakeup.drain() }
            if fds[0].revents != 0 { return }
        }
    }
}
