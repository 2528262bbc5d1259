import NIOCore
import NIOHTTP1

/// Turns a websocket upgrade the page refuses into a plain request, so the responder answers it as any refused
/// request (403, with the page's headers): refused at the upgrade itself, it would get a bare 400. It reads the
/// connection's first request only, the one an upgrade can be, and then steps out of the pipeline.
final class UpgradeGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    /// Whether the page refuses this request head from this client address.
    private let refuses: @Sendable (HTTPRequestHead, String?) -> Bool

    init(refuses: @escaping @Sendable (HTTPRequestHead, String?) -> Bool) { self.refuses = refuses }

    /// Puts a guard behind the connection's request decoder, ahead of the upgrade handler.
    static func install(on channel: any Channel, refuses: @escaping @Sendable (HTTPRequestHead, String?) -> Bool) {
        let pipeline = channel.pipeline.syncOperations
        guard let decoder = try? pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) else { return }
        try? pipeline.addHandler(UpgradeGuard(refuses: refuses), position: .after(decoder))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        if head.headers.contains(name: "upgrade"), refuses(head, context.channel.remoteAddress?.ipAddress) {
            head.headers.remove(name: "upgrade")
            context.fireChannelRead(wrapInboundOut(.head(head)))
        } else {
            context.fireChannelRead(data)
        }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
