import Foundation
import Glibc
import Synchronization

/// A websocket client on a raw socket that completes the upgrade and sends one frame: a browser tab that then
/// stalls (it reads nothing), or a page whose owner reads the socket itself, as cheaply as it can. Its receive
/// buffer is kept small, so a stalled page's server writes back up soon and what is left in the socket buffers
/// drains fast once it reads. Reads never block: a task waiting in `recv` would hold one of the few threads
/// every task shares.
public final class RawWebSocketClient: Sendable {
    /// The socket, for an owner that reads it.
    public let descriptor: Int32

    /// Connects to the web frontend at `port`; `receiveBuffer` bytes of receive buffer (nil: the system's).
    public init(port: Int, receiveBuffer: Int32? = 65536) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket() failed") }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw TestFailure("connect() failed: \(errno)") }
    }

    private let closed = Mutex(false)

    deinit { hangUp() }

    /// Closes the connection, as a tab being closed does.
    public func hangUp() {
        guard !closed.withLock({ state in defer { state = true }; return state }) else { return }
        close(descriptor)
    }

    /// Upgrades to a websocket and sends `first`; `origin` is sent as a browser would, `headers` (`Name: value`)
    /// as a proxy in front adds them.
    public func handshake(first text: String, host: String = "127.0.0.1", origin: String? = nil, headers: [String] = []) async throws {
        let request = "GET /api HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + (origin.map { "Origin: \($0)\r\n" } ?? "") + headers.map { $0 + "\r\n" }.joined()
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try write(Array(request.utf8))
        var response: [UInt8] = []
        var byte: UInt8 = 0
        let deadline = ContinuousClock.now + .seconds(10)
        while !response.suffix(4).elementsEqual([13, 10, 13, 10]) {
            let count = recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT))
            if count == 1 {
                response.append(byte)
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            } else {
                throw TestFailure("no upgrade response")
            }
        }
        guard String(decoding: response, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
            throw TestFailure("upgrade refused: \(String(decoding: response, as: UTF8.self))")
        }
        // One masked text frame (a client must mask), short enough for a 7-bit length.
        let payload = Array(text.utf8)
        let mask: [UInt8] = [1, 2, 3, 4]
        var frame: [UInt8] = [0x81, 0x80 | UInt8(payload.count)] + mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try write(frame)
    }

    /// Sends `text` as it is, as a client that has not finished its request yet.
    public func write(_ text: String) throws { try write(Array(text.utf8)) }

    /// What a client may have sent when it stops before its request is whole: nothing (a browser's preconnect)
    /// or half of one.
    public static let unfinishedRequests = ["", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"]

    private func write(_ bytes: [UInt8]) throws {
        guard send(descriptor, bytes, bytes.count, 0) == bytes.count else { throw TestFailure("send() failed") }
    }

    /// Reads everything the server still sends; returns the byte count once it has closed the connection.
    public func drainUntilClosed(timeout: Duration) async throws -> Int {
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = ContinuousClock.now + timeout
        // The socket is read once more after the deadline: on a loaded machine the task may first run again
        // only after it, and what the server did by then counts.
        while true {
            let late = ContinuousClock.now >= deadline
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 { return total }
            if count < 0 {
                if errno == ECONNRESET { return total }
                guard errno == EAGAIN || errno == EWOULDBLOCK else { throw TestFailure("recv() failed: \(errno)") }
                if late { throw TestFailure("the server kept the stalled connection open") }
                try await Task.sleep(for: .milliseconds(1))
                continue
            }
            total += count
        }
    }
}
