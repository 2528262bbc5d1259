import NIOCore

/// Closes a connection refused for the limit, or from an address `allow_from` does not list, as soon as it is
/// active. One that is answered gets a 503 (or 403) first, as a browser shows it, and stays open a moment after it:
/// what the client sends meanwhile is read and dropped, since closing a socket with unread data resets the
/// connection, and the client may then drop the answer unread.
final class RefusedConnection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How long an answered connection stays open for the client to read its answer and hang up.
    static let linger: Duration = .seconds(1)
    /// The answer past the connection limit.
    static let busy = answer(
        "503 Service Unavailable", "The things2mqtt web frontend has too many connections open. Try again in a moment.\n",
        extra: "Retry-After: 5\r\n")
    /// The answer to an address `allow_from` does not list.
    static let forbidden = answer("403 Forbidden", "forbidden\n")

    /// A whole response that closes the connection, with the headers every answer of the page carries.
    static func answer(_ status: String, _ body: String, extra: String = "") -> String {
        "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n" + extra
            + "Content-Security-Policy: \(FrontendResponder.policy)\r\nX-Content-Type-Options: nosniff\r\n"
            + "Connection: close\r\n\r\n" + body
    }

    private let answer: String
    /// Counts the connection while it is answered; nil for one closed without an answer.
    private let answering: OpenConnections?

    init(answer: String, answering: OpenConnections?) {
        self.answer = answer
        self.answering = answering
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Whenever the connection ends, even before it was active, its place among those answered is free.
        if let answering { context.channel.closeFuture.whenComplete { _ in answering.refusalAnswered() } }
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        guard answering != nil else { return OpenConnections.end(channel) }
        // The answer ends with the sending side, once it is written (closing it fails writes still pending): the
        // client reads it to its end and hangs up, which closes the connection; one that does not is closed after
        // `linger`.
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(string: answer))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
        }
        context.eventLoop.scheduleTask(in: TimeAmount(Self.linger)) { OpenConnections.end(channel) }
    }

    /// Dropped: the connection is not served.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
