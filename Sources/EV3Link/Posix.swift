import Glibc
import Support

/// The one funnel for system calls: retries on EINTR and turns a failure into a typed error naming the call.
/// Every call here runs on a link's own thread (or a listener's), never on the cooperative pool.
enum Posix {
    /// Runs `body` until it does not fail with EINTR; a negative result becomes `.system(call, errno)`.
    @discardableResult
    static func call(_ name: String, _ body: () -> Int) throws(EV3LinkError) -> Int {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = errno
            if code == EINTR { continue }
            throw error(name, code)
        }
    }

    /// `call` for the many functions that return `Int32`.
    @discardableResult
    static func call32(_ name: String, _ body: () -> Int32) throws(EV3LinkError) -> Int32 {
        Int32(try call(name) { Int(body()) })
    }

    /// A doorbell pipe for a connection's thread.
    static func wakeup() throws(EV3LinkError) -> Wakeup {
        guard let wakeup = Wakeup() else { throw error("pipe", errno) }
        return wakeup
    }

    /// The error for a failed call and its errno.
    static func error(_ name: String, _ code: Int32) -> EV3LinkError {
        .system(call: name, errno: code, message: String(cString: strerror(code)))
    }

    /// Makes a descriptor non-blocking and close-on-exec.
    static func configure(_ fd: Int32) throws(EV3LinkError) {
        let flags = try call32("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
        try call32("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        try call32("fcntl(F_SETFD)") { fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }

    /// Whether a descriptor is a socket (written with `send` and MSG_NOSIGNAL, so a closed peer never raises
    /// SIGPIPE in the daemon).
    static func isSocket(_ fd: Int32) -> Bool {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFSOCK
    }

    /// Writes what it can without blocking: the count written, 0 when the descriptor is full.
    static func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>, socket: Bool) throws(EV3LinkError) -> Int {
        let result = bytes.withUnsafeBytes { buffer -> Int in
            while true {
                let written = socket
                    ? send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                    : Glibc.write(fd, buffer.baseAddress, buffer.count)
                if written >= 0 || errno != EINTR { return written }
            }
        }
        if result >= 0 { return result }
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK { return 0 }
        throw error(socket ? "send" : "write", code)
    }

    /// Reads what is there without blocking: nil when nothing is, an empty array at end of file.
    static func read(_ fd: Int32, upTo count: Int) throws(EV3LinkError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        let result = buffer.withUnsafeMutableBytes { raw -> Int in
            while true {
                let got = Glibc.read(fd, raw.baseAddress, raw.count)
                if got >= 0 || errno != EINTR { return got }
            }
        }
        if result >= 0 { return Array(buffer.prefix(result)) }
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK { return nil }
        // A pty whose other side closed reads EIO: the same as the end of the stream.
        if code == EIO { return [] }
        throw error("read", code)
    }

    /// Milliseconds until `deadline` for poll(), rounded up, never negative; -1 without a deadline.
    static func timeout(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let (seconds, attoseconds) = (deadline - .now).components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds + 1))
    }
}
