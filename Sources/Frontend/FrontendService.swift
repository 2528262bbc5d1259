public import BridgeConfig
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
public import Logging
import NIOCore
public import ServiceLifecycle

/// The web frontend: the page, its `api` websocket, `healthz` and `metrics`, served by the daemon as one
/// service of its group. A port that cannot be bound is logged and leaves the bridge running without a page.
public struct FrontendService: Service, CustomStringConvertible {
    let settings: FrontendSettings
    let link: FrontendLink
    let logger: Logger
    let authTimeout: Duration
    let requestTimeout: Duration
    let maxSockets: Int
    let maxConnections: Int
    let onListening: @Sendable (Int) -> Void

    /// Creates the service; `maxSockets` pages may hold the websocket at once, and `maxConnections` connections
    /// (pages included) be open; a connection has `requestTimeout` to send its first request head, and a request
    /// as long again to be whole; `onListening` gets the bound port (useful with port 0).
    public init(
        settings: FrontendSettings, link: FrontendLink, logger: Logger, authTimeout: Duration = .seconds(5),
        requestTimeout: Duration = .seconds(20), maxSockets: Int = 64, maxConnections: Int = 128,
        onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.settings = settings
        self.link = link
        self.logger = logger
        self.authTimeout = authTimeout
        self.requestTimeout = requestTimeout
        self.maxSockets = maxSockets
        self.maxConnections = maxConnections
        self.onListening = onListening
    }

    /// The address only: the token must never reach a log line.
    public var description: String { "FrontendService(\(settings.host):\(settings.port))" }

    /// Serves until graceful shutdown.
    public func run() async throws {
        if let problem = settings.exposureProblem {
            // The config's check says the same with its line; this holds for settings made any other way too.
            logger.error("The web frontend does not start; the bridge runs on without it", metadata: ["reason": "\(problem)"])
            try? await gracefulShutdown()
            return
        }
        let session = APISession(
            link: link, frames: FrameCache(), gate: SocketGate(limit: maxSockets), token: settings.authToken?.value,
            authTimeout: authTimeout, logger: logger)
        let logger = self.logger
        let host = settings.host
        let policy = HostPolicy(settings)
        let onListening = self.onListening
        let settings = self.settings
        let allows: @Sendable (String?) -> Bool = { settings.allows($0) }
        let connections = OpenConnections(requestTimeout: requestTimeout, limit: maxConnections, allows: allows, logger: logger)
        // A connection kept open between requests is closed after a minute without one, as browsers expect.
        let http1 = HTTP1Channel.Configuration(additionalChannelHandlers: [RequestArrival(connections)], idleTimeout: .seconds(60))
        let app = Application(
            responder: FrontendResponder(
                link: link, metrics: FrontendMetrics(link: link), logs: LogDownload(ring: link.logs, token: settings.authToken?.value),
                allows: allows, policy: policy, logger: logger),
            server: HTTPServerBuilder { responder in
                let channel = HTTP1WebSocketUpgradeChannel(responder: responder, configuration: .init(http1: http1)) { head, channel, _ in
                    connections.requestArrived(on: channel)
                    let check = RequestCheck(head, policy: policy)
                    // `UpgradeGuard` has made a refused upgrade a plain request, which the responder answers 403; this
                    // holds should a request pass it.
                    guard Self.isAPI(head.path), allows(channel.remoteAddress?.ipAddress), check.refusal(policy) == nil else {
                        return .dontUpgrade
                    }
                    return .upgrade([:]) { inbound, outbound, _ in
                        try await session.run(inbound: inbound, outbound: outbound, channel: channel, user: check.remoteUser)
                    }
                }
                return TrackedChildChannel(base: channel, connections: connections) { channel in
                    UpgradeGuard.install(on: channel) { head, peer in
                        let check = RequestCheck(authority: nil, policy: policy) { head.headers.first(name: $0) }
                        return !Self.isAPI(head.uri) || !allows(peer) || check.refusal(policy) != nil
                    }
                }
            },
            configuration: ApplicationConfiguration(address: .hostname(host, port: settings.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.info("Web frontend listening", metadata: ["url": "http://\(host):\(port)/"])
                onListening(port)
            },
            logger: logger)
        do {
            try await withTaskCancellationOrGracefulShutdownHandler {
                try await app.run()
            } onCancelOrGracefulShutdown: {
                connections.close(after: Self.shutdownGrace)
            }
        } catch {
            logger.error(
                "The web frontend cannot serve; the bridge runs on without it",
                metadata: ["address": "\(host):\(settings.port)", "error": "\(error)"])
            try? await gracefulShutdown()
        }
    }

    /// How long a shutdown lets open connections finish before it closes them.
    static let shutdownGrace = Duration.seconds(2)

    /// The websocket's path is `api` under whatever prefix the page was loaded from.
    static func isAPI(_ path: String?) -> Bool {
        guard let path else { return false }
        let bare = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        return bare == "/api" || bare.hasSuffix("/api")
    }
}
