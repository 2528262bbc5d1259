import Glibc

/// What the simulator's threads need from the system: small, blocking where a brick would block.
enum SimIO {
    /// Why the simulator could not set a transport up.
    static func failure(_ call: String) -> EV3SimulatorError {
        EV3SimulatorError.system(call: call, message: String(cString: strerror(errno)))
    }

    /// Writes everything, waiting while the descriptor is full; false when the other end is gone. Sockets
    /// get MSG_NOSIGNAL, so a client that went away never raises SIGPIPE in the process.
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], socket: Bool) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { raw in
                socket ? send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL)) : write(fd, raw.baseAddress, raw.count)
            }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
                _ = poll(&fds, 1, 100)
            } else {
                return false
            }
        }
        return true
    }

    /// Waits up to `milliseconds` for `fd` to be readable.
    static func readable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        return poll(&fds, 1, milliseconds) > 0 && fds[0].revents != 0
    }

    /// Reads what is there: nil for nothing yet, an empty array for the end of the stream (or EIO: a pty with
    /// nothing open on its other side).
    static func read(_ fd: Int32, upTo count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        let got = Glibc.read(fd, &buffer, count)
        if got > 0 { return Array(buffer.prefix(got)) }
        if got == 0 { return [] }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
        return []
    }

    static func nonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// An IPv4 socket address.
    static func address(_ host: String, _ port: Int) -> sockaddr_in? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        return address
    }

    /// The port a socket is bound to.
    static func boundPort(_ fd: Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Why a simulator transport could not start.
public enum EV3SimulatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call failed.
    case system(call: String, message: String)
    /// An address that is not IPv4 text.
    case badAddress(String)
    /// `waitForFrames` saw only `matched` of `expected` frames in time.
    case timedOut(expected: Int, matched: Int)

    /// One line.
    public var description: String {
        switch self {
        case .system(let call, let message): "\(call) failed: \(message)"
        case .badAddress(let text): "\"\(text)\" is not an IPv4 address"
        case .timedOut(let expected, let matched): "saw \(matched) of \(expected) frames in time"
        }
    }
}
