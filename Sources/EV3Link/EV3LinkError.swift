public import EV3Protocol

/// Why a brick could not be reached or a request to it failed. Each case carries what is needed to tell the
/// user what went wrong; nothing a brick sends makes the link trap.
public enum EV3LinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No connection to the brick right now: nothing is queued, so nothing stale runs after a reconnect.
    case notConnected
    /// The brick's queue holds `limit` requests already.
    case queueFull(limit: Int)
    /// The command could not be encoded; nothing was sent.
    case encoding(EV3EncodingError)
    /// No reply to message `counter` within the transport's timeout; a late reply is dropped.
    case timedOut(counter: UInt16)
    /// The brick missed this many replies in a row, so the link was given up.
    case stoppedAnswering(missed: Int)
    /// The brick answered a request with `04` (refused or failed); nothing can be read from it.
    case refused(counter: UInt16)
    /// A reply to this request that cannot be read (wrong size, wrong kind).
    case malformedReply(String)
    /// The byte stream lost its framing (a length field no brick sends); the connection is dropped.
    case outOfStep(EV3DecodingError)
    /// A system call failed: which, its errno and the system's explanation.
    case system(call: String, errno: Int32, message: String)
    /// The brick (or the tty, or the USB device) closed the connection.
    case closedByPeer
    /// The WiFi unlock was not accepted in time.
    case handshake(String)
    /// Connecting took longer than allowed.
    case connectTimedOut(String)
    /// The link was shut down (or the connection dropped) while the request waited.
    case closed
    /// An address or path that cannot name a brick.
    case invalidEndpoint(String)

    /// One line for logs and events.
    public var description: String {
        switch self {
        case .notConnected: "not connected to the brick"
        case .queueFull(let limit): "the brick's queue is full (\(limit) requests)"
        case .encoding(let error): "cannot encode the command: \(error)"
        case .timedOut(let counter): "no reply to message \(counter) in time"
        case .stoppedAnswering(let missed): "the brick stopped answering (\(missed) replies missed in a row)"
        case .refused(let counter): "the brick refused message \(counter)"
        case .malformedReply(let detail): "unreadable reply: \(detail)"
        case .outOfStep(let error): "the connection lost its framing: \(error)"
        case .system(let call, let errno, let message): "\(call) failed: \(message) (errno \(errno))"
        case .closedByPeer: "the connection was closed by the other end"
        case .handshake(let detail): "the WiFi unlock failed: \(detail)"
        case .connectTimedOut(let what): "connecting to \(what) timed out"
        case .closed: "the link was closed"
        case .invalidEndpoint(let detail): detail
        }
    }
}
