/// Where a subscription's signals go, called on the connection's loop thread: it must only hand the signal
/// over (enqueue, merge) and return, never block or wait.
public protocol DBusSignalSink: Sendable {
    /// A signal the subscription's rule matched.
    func receive(_ signal: DBusSignal)
    /// A signal the subscription's rule matched, offered with a reader over its body before any `DBusValue` is
    /// built: true if the sink took it so; false hands it over as a `DBusSignal` to `receive(_:)`.
    func receive(_ header: DBusSignalHeader, body: inout DBusBodyReader) -> Bool
    /// The connection closed or the subscription ended: no more signals come.
    func finish()
}

extension DBusSignalSink {
    /// Takes every signal as a `DBusSignal`.
    public func receive(_ header: DBusSignalHeader, body: inout DBusBodyReader) -> Bool { false }
}

/// The sink behind the stream form of `subscribe`.
struct StreamSignalSink: DBusSignalSink {
    let continuation: AsyncStream<DBusSignal>.Continuation

    func receive(_ signal: DBusSignal) { continuation.yield(signal) }
    func finish() { continuation.finish() }
}
