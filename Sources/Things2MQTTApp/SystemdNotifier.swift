import FoundationEssentials
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// Speaks systemd's notify protocol when run with `Type=notify`: `READY=1` as soon as the daemon runs and
/// is connecting (a broker that is down must not hold `systemctl start`; the bridge's own state topic says
/// whether it is connected), `STATUS=` whenever the broker connection changes, `WATCHDOG=1` while the
/// bridge's queue keeps turning, `STOPPING=1` on shutdown. Without `NOTIFY_SOCKET` it does nothing.
struct SystemdNotifier: Service, CustomStringConvertible {
    let socketPath: String?
    let watchdogInterval: Duration?
    let broker: String
    let isConnected: @Sendable () -> Bool
    let bridgeResponds: @Sendable () async -> Void

    var description: String { "SystemdNotifier" }

    init(
        environment: [String: String], broker: String, isConnected: @escaping @Sendable () -> Bool,
        bridgeResponds: @escaping @Sendable () async -> Void
    ) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        // systemd wants a ping at least every WATCHDOG_USEC; twice as often leaves room for a busy moment.
        watchdogInterval = environment["WATCHDOG_USEC"].flatMap { Int64($0) }.flatMap { $0 > 0 ? .microseconds($0 / 2) : nil }
        self.broker = broker
        self.isConnected = isConnected
        self.bridgeResponds = bridgeResponds
    }

    func run() async throws {
        guard let socketPath else {
            try? await gracefulShutdown()
            return
        }
        await cancelWhenGracefulShutdown {
            var connected = isConnected()
            Self.send("READY=1\n" + status(connected), to: socketPath)
            // The connection is polled once a second (a mutex read); the watchdog may want pings more often.
            let tick = min(watchdogInterval ?? .seconds(1), .seconds(1))
            var lastPing = ContinuousClock.now
            while (try? await Task.sleep(for: tick)) != nil {
                if isConnected() != connected {
                    connected.toggle()
                    Self.send(status(connected), to: socketPath)
                }
                if let watchdogInterval, ContinuousClock.now - lastPing >= watchdogInterval {
                    await bridgeResponds()
                    Self.send("WATCHDOG=1", to: socketPath)
                    lastPing = .now
                }
            }
        }
        Self.send("STOPPING=1", to: socketPath)
    }

    private func status(_ connected: Bool) -> String {
        connected ? "STATUS=Connected to the MQTT broker at \(broker)" : "STATUS=Connecting to the MQTT broker at \(broker)"
    }

    /// Sends one datagram to the notify socket (a path, or an abstract name starting with `@`).
    static func send(_ message: String, to path: String) {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var name = Array(path.utf8)
        let abstract = name.first == UInt8(ascii: "@")
        if abstract { name[0] = 0 }
        guard name.count < MemoryLayout.size(ofValue: address.sun_path) else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + name.count + (abstract ? 0 : 1))
        let bytes = Array(message.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(fd, bytes, bytes.count, 0, socketAddress, length)
            }
        }
    }
}
