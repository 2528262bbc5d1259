import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A Unix datagram socket standing where systemd's `NOTIFY_SOCKET` would be; collects what is sent to it.
public final class NotifySocket: Sendable {
    /// The socket's path, for `NOTIFY_SOCKET`.
    public let path: String
    private let fd: Int32
    private let received = Mutex<[String]>([])

    /// Binds a fresh socket in `directory`.
    public init(in directory: TemporaryDirectory) throws {
        path = directory.file("notify.sock")
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket(AF_UNIX) failed (errno \(errno))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let name = Array(path.utf8)
        guard name.count < MemoryLayout.size(ofValue: address.sun_path) else { throw TestFailure("socket path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw TestFailure("bind \(path) failed (errno \(errno))") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    /// Every datagram received so far.
    public var messages: [String] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            let text = String(decoding: buffer[0..<count], as: UTF8.self)
            received.withLock { $0.append(text) }
        }
        return received.withLock { $0 }
    }

    /// Waits for a datagram containing `text`.
    public func waitFor(_ text: String, timeout: Duration = .seconds(10)) async throws {
        try await waitUntil("\"\(text)\" on the notify socket; got \(messages)", timeout: timeout) {
            messages.contains { $0.contains(text) }
        }
    }
}
