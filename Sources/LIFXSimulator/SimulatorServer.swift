import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// Where the listening socket is in its life.
enum ServerStatus: Sendable {
    case idle
    case starting
    case running(channel: any Channel, host: String, port: Int)
    case stopped(host: String, port: Int)
}

/// Open client connections, so that `stop` can close keep-alive sockets too.
final class ConnectionRegistry: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

    /// Tracks a channel until it closes.
    func add(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        channels.withLock { $0[key] = channel }
        channel.closeFuture.whenComplete { [self] _ in
            _ = channels.withLock { $0.removeValue(forKey: key) }
        }
    }

    /// Hands over every tracked channel and forgets them.
    func drain() -> [any Channel] {
        channels.withLock { current in
            defer { current.removeAll() }
            return Array(current.values)
        }
    }
}

extension LIFXCloudSimulator {
    /// Binds the HTTP server and returns the port (pass 0 for any free port).
    public func start(host: String = "127.0.0.1", port: Int = 0) async throws -> Int {
        try server.withLock { status in
            switch status {
            case .idle, .stopped: status = .starting
            case .starting, .running: throw SimulatorError.alreadyRunning
            }
        }
        do {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 512)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                // A TCP-level option: `.socketOption` would put TCP_NODELAY's number at SOL_SOCKET level, which is
                // SO_DEBUG, refused to anyone without CAP_NET_ADMIN.
                .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
                .childChannelInitializer { [self] channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(HTTPConnectionHandler(simulator: self))
                        connections.add(channel)
                    }
                }
                .bind(host: host, port: port)
                .get()
            let bound = channel.localAddress?.port ?? port
            server.withLock { $0 = .running(channel: channel, host: host, port: bound) }
            logger.info("LIFX cloud simulator listening on \(host):\(bound)")
            return bound
        } catch {
            server.withLock { $0 = .idle }
            throw error
        }
    }

    /// Stops listening and closes open connections; a no-op when not running.
    public func stop() async throws {
        let channel: (any Channel)? = server.withLock { status in
            guard case .running(let channel, let host, let port) = status else { return nil }
            status = .stopped(host: host, port: port)
            return channel
        }
        guard let channel else { return }
        do {
            try await channel.close()
        } catch ChannelError.alreadyClosed {
            // Someone else closed it; the goal is reached either way.
        }
        let clients = connections.drain()
        for client in clients { client.close(promise: nil) }
        for client in clients { try? await client.closeFuture.get() }
        logger.info("LIFX cloud simulator stopped")
    }

    /// The bound port, or nil before `start`.
    public var port: Int? {
        server.withLock { status in
            switch status {
            case .running(_, _, let port), .stopped(_, let port): port
            case .idle, .starting: nil
            }
        }
    }

    /// The API root clients should use, e.g. "http://127.0.0.1:8123/v1".
    public var baseURL: String {
        let (host, port): (String, Int) = server.withLock { status in
            switch status {
            case .running(_, let host, let port), .stopped(let host, let port): (host, port)
            case .idle, .starting: ("127.0.0.1", 0)
            }
        }
        // A wildcard bind address is not something a client can connect to.
        let reachable = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        let bracketed = reachable.contains(":") ? "[\(reachable)]" : reachable
        return "http://\(bracketed):\(port)/v1"
    }
}
