import Hummingbird
import NIOCore

/// A request's context with the client's address, so the page can be kept to the addresses `allow_from` lists.
struct FrontendContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
