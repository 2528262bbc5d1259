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

    /// Connects to the web frontend at `port`; `receiveBuffer` bytes of receive buffer (nil: the system's); from
    /// `source`, another loopback address (`127.0.0.2`), as a client of another machine would be seen.
    public init(port: Int, receiveBuffer: Int32? = 65536, from source: String? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket() failed") }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            // The descriptor is closed by deinit, as on a failed connect.
            guard bound == 0 else { throw TestFailure("bind() to \(source) failed: \(errno)") }
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

    /// Upgrades to a websocket and sends `first` (if any); `origin` is sent as a browser would, `headers` (`Name: value`)
    /// as a proxy in front adds them.
    public func handshake(first text: String?, host: String = "127.0.0.1", origin: String? = nil, headers: [String] = []) async throws {
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
        guard let text else { return }
        try sendFrame(text)
    }

    /// Sends one text frame, masked as a client must.
    public func sendFrame(_ text: String) throws {
        let payload = Array(text.utf8)
        let mask: [UInt8] = [1, 2, 3, 4]
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
        }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try write(frame)
    }

    /// Reads the server's text frames until `done` holds for those so far, a close frame comes, or the connection
    /// ends: the texts, and the close frame's code (nil without one).
    public func texts(timeout: Duration, until done: ([String]) -> Bool) async throws -> (texts: [String], close: UInt16?) {
        var pending: [UInt8] = []
        var texts: [String] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = ContinuousClock.now + timeout
        while true {
            while let frame = Self.frame(in: pending) {
                pending.removeFirst(frame.length)
                if frame.opcode == 0x8 {
                    return (texts, frame.payload.count >= 2 ? frame.payload.prefix(2).reduce(0) { $0 << 8 | UInt16($1) } : nil)
                }
                guard frame.opcode == 0x1 else { continue }
                texts.append(String(decoding: frame.payload, as: UTF8.self))
                if done(texts) { return (texts, nil) }
            }
            guard let count = try await receive(&buffer, deadline: deadline, failure: "the server's frames did not come in time") else {
                return (texts, nil)
            }
            pending += buffer[0..<count]
        }
    }

    /// Sends `text` as it is, as a client that has not finished its request yet.
    public func write(_ text: String) throws { try write(Array(text.utf8)) }

    /// What a client may have sent when it stops before its request is whole: nothing (a browser's preconnect)
    /// or half of one.
    public static let unfinishedRequests = ["", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"]

    private func write(_ bytes: [UInt8]) throws {
        // MSG_NOSIGNAL: a write after the server closed fails here instead of killing the test process.
        guard send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw TestFailure("send() failed") }
    }

    /// Reads everything the server still sends; returns the byte count once it has closed the connection.
    public func drainUntilClosed(timeout: Duration) async throws -> Int {
        var total = 0
        try await readUntilClosed(timeout: timeout) { total += $0.count }
        return total
    }

    /// Everything the server sends until it closes the connection (or ends its sending side).
    public func receiveUntilClosed(timeout: Duration) async throws -> [UInt8] {
        var received: [UInt8] = []
        try await readUntilClosed(timeout: timeout) { received += $0 }
        return received
    }

    private func readUntilClosed(timeout: Duration, _ each: (ArraySlice<UInt8>) -> Void) async throws {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = ContinuousClock.now + timeout
        while let count = try await receive(&buffer, deadline: deadline, failure: "the server kept the stalled connection open") {
            each(buffer[0..<count])
        }
    }

    /// Reads the server's frames up to its close frame: how many text frames came before it, and its code (nil when
    /// the connection ended without one).
    public func closeFrame(timeout: Duration) async throws -> (texts: Int, code: UInt16?) {
        let (texts, code) = try await texts(timeout: timeout) { _ in false }
        return (texts.count, code)
    }

    /// The first whole frame in `bytes`, as a server sends it (unmasked): its opcode, its payload and its length.
    static func frame(in bytes: [UInt8]) -> (opcode: UInt8, payload: ArraySlice<UInt8>, length: Int)? {
        guard bytes.count >= 2 else { return nil }
        var header = 2
        var size = Int(bytes[1] & 0x7f)
        if size == 126 {
            guard bytes.count >= 4 else { return nil }
            size = Int(bytes[2]) << 8 | Int(bytes[3])
            header = 4
        } else if size == 127 {
            guard bytes.count >= 10 else { return nil }
            size = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
            header = 10
        }
        guard bytes.count >= header + size else { return nil }
        return (bytes[0] & 0x0f, bytes[header..<header + size], header + size)
    }

    /// Waits for bytes without blocking a thread: their count, or nil once the server has closed the connection;
    /// `failure` is thrown when nothing comes by `deadline`. The socket is read once more after the deadline: on a
    /// loaded machine the task may first run again only after it, and what the server did by then counts.
    private func receive(_ buffer: inout [UInt8], deadline: ContinuousClock.Instant, failure: String) async throws -> Int? {
        while true {
            let late = ContinuousClock.now >= deadline
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { return count }
            if count == 0 { return nil }
            if errno == ECONNRESET { return nil }
            guard errno == EAGAIN || errno == EWOULDBLOCK else { throw TestFailure("recv() failed: \(errno)") }
            if late { throw TestFailure(failure) }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
