import Foundation
import NIOCore
import NIOHTTP1

/// Turns HTTP/1.1 requests on one connection into simulator calls.
///
/// Responses go out in request order because the pipeline helper NIO installs
/// holds back any pipelined request until the previous answer is written.
final class HTTPConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Bodies beyond this are refused; real requests are a few kilobytes at most.
    static let maximumBodySize = 1 << 20

    private let simulator: LIFXCloudSimulator
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()
    private var oversized = false

    init(simulator: LIFXCloudSimulator) {
        self.simulator = simulator
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
            oversized = false
            if head.headers[canonicalForm: "expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                let interim = HTTPResponseHead(version: head.version, status: .continue)
                context.writeAndFlush(wrapOutboundOut(.head(interim)), promise: nil)
            }
        case .body(var chunk):
            if body.readableBytes + chunk.readableBytes > Self.maximumBodySize {
                oversized = true
            } else if !oversized {
                body.writeBuffer(&chunk)
            }
        case .end:
            guard let head else { return }
            self.head = nil
            dispatch(head, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func dispatch(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard !oversized else {
            let refusal = APIResponse.error(413, "Request body too large")
            write(refusal, rendered: refusal.renderedBody(), for: head, keepAlive: false, context: context)
            return
        }
        let request = IncomingRequest(
            method: head.method.rawValue,
            uri: head.uri,
            authorization: head.headers.first(name: "authorization"),
            contentType: head.headers.first(name: "content-type"),
            body: String(buffer: body),
            receivedAt: Date()
        )
        let delay = simulator.currentLatency()
        guard delay > .zero else {
            answer(request, head: head, context: context)
            return
        }
        // Latency is simulated with a timer so the event loop keeps serving other connections.
        let (seconds, attoseconds) = delay.components
        let nanos = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(nanos)) {
            self.answer(request, head: head, context: context)
        }
    }

    private func answer(_ request: IncomingRequest, head: HTTPRequestHead, context: ChannelHandlerContext) {
        let response = simulator.process(request)
        write(response, rendered: response.renderedBody(), for: head, keepAlive: head.isKeepAlive, context: context)
    }

    private func write(
        _ response: APIResponse, rendered: String?, for head: HTTPRequestHead,
        keepAlive: Bool, context: ChannelHandlerContext
    ) {
        var headers = HTTPHeaders()
        let payload = rendered.map { context.channel.allocator.buffer(string: $0) }
        if payload != nil { headers.add(name: "Content-Type", value: "application/json; charset=utf-8") }
        headers.add(name: "Content-Length", value: String(payload?.readableBytes ?? 0))
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        if !keepAlive {
            headers.add(name: "Connection", value: "close")
        } else if head.version.major == 1, head.version.minor == 0 {
            headers.add(name: "Connection", value: "keep-alive")
        }
        let status = HTTPResponseStatus(statusCode: response.status)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
                      promise: nil)
        if let payload { context.write(wrapOutboundOut(.body(.byteBuffer(payload))), promise: nil) }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
