/// Where a subscription's signals go, called on the connection's loop thread: it must only hand the signal
/// over (enqueue, merge) and return, never block or wait.
public protocol DBusSignalSink: Sendable {
    /// A signal the subscription's rule matched.
    func receive(_ signal: DBusSignal)
    /// The connection closed or the subscription ended: no more signals come.
    func finish()
}

/// The sink behind the stream form of `subscribe`.
struct StreamSignalSink: DBusSignalSink {
    let continuation: AsyncStream<DBusSignal>.Continuation

    func receive(_ signal: DBusSignal) { continuation.yield(signal) }
    func finish() { continuation.finish() }
}
