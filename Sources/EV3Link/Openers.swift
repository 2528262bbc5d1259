import EV3Protocol
import Glibc
import Support

/// Opening each transport, on the connection's thread: every call here may block, up to the context's
/// deadline.
enum Openers {
    /// Opens the endpoint and, for WiFi, unlocks the brick.
    static func open(_ endpoint: EV3Endpoint, context: OpenContext) throws(EV3LinkError) -> FrameChannel.Opened {
        switch endpoint.kind {
        case .wifi(let host, let port):
            let fd = try tcp(host: host, port: port, context: context)
            do throws(EV3LinkError) {
                return try WiFiUnlock.perform(on: fd, serial: endpoint.knownSerial, context: context)
            } catch {
                close(fd)
                throw error
            }
        case .rfcomm(let address): return FrameChannel.Opened(fd: try rfcomm(address, context: context))
        case .tty(let path): return FrameChannel.Opened(fd: try tty(path))
        case .hidraw(let path): return FrameChannel.Opened(fd: try reports(try openDevice(path, "open(\(path))")))
        case .reports(let descriptor): return FrameChannel.Opened(fd: try reports(descriptor))
        }
    }

    /// A TCP connection to the first address of `host` that answers, Nagle off (frames are small and each
    /// waits for its reply).
    static func tcp(host: String, port: Int, context: OpenContext) throws(EV3LinkError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw .system(call: "getaddrinfo(\(host))", errno: status, message: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var failure = EV3LinkError.connectTimedOut(context.what)
        var next: UnsafeMutablePointer<addrinfo>? = list
        while let entry = next {
            next = entry.pointee.ai_next
            do throws(EV3LinkError) {
                let fd = try Posix.call32("socket") {
                    socket(entry.pointee.ai_family, entry.pointee.ai_socktype, entry.pointee.ai_protocol)
                }
                do throws(EV3LinkError) {
                    try connect(fd, address: entry.pointee.ai_addr, length: entry.pointee.ai_addrlen, context: context)
                } catch {
                    close(fd)
                    throw error
                }
                var one: Int32 = 1
                _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return fd
            } catch {
                if case .closed = error { throw error }
                failure = error
            }
        }
        throw failure
    }

    /// An RFCOMM socket to channel 1 of a paired brick.
    static func rfcomm(_ address: BluetoothAddress, context: OpenContext) throws(EV3LinkError) -> Int32 {
        let fd = try Posix.call32("socket(AF_BLUETOOTH)") {
            socket(Int32(SockaddrRC.familyBluetooth), Int32(SOCK_STREAM.rawValue), SockaddrRC.protocolRFCOMM)
        }
        do throws(EV3LinkError) {
            let bytes = address.socketAddress.bytes
            // withUnsafeBytes rethrows untyped errors, so the outcome comes out as a Result.
            let outcome = bytes.withUnsafeBytes { raw in
                Result { () throws(EV3LinkError) in
                    let pointer = raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)
                    try connect(fd, address: pointer, length: socklen_t(raw.count), context: context)
                }
            }
            try outcome.get()
            return fd
        } catch {
            close(fd)
            throw error
        }
    }

    /// Connects a socket without blocking past the deadline.
    private static func connect(
        _ fd: Int32, address: UnsafePointer<sockaddr>, length: socklen_t, context: OpenContext
    ) throws(EV3LinkError) {
        try Posix.configure(fd)
        if Glibc.connect(fd, address, length) == 0 { return }
        guard errno == EINPROGRESS || errno == EINTR else { throw Posix.error("connect", errno) }
        try context.wait(for: fd, events: Int16(POLLOUT))
        var code: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        try Posix.call32("getsockopt(SO_ERROR)") { getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &size) }
        if code != 0 { throw Posix.error("connect", code) }
    }

    /// A tty (a bound `/dev/rfcommN`, a pty) in raw mode: no echo, no line editing, no CR/LF translation, all
    /// eight bits, so frames pass as they are.
    static func tty(_ path: String) throws(EV3LinkError) -> Int32 {
        let fd = try openDevice(path, "open(\(path))", flags: O_NOCTTY)
        do throws(EV3LinkError) {
            var settings = termios()
            try Posix.call32("tcgetattr(\(path))") { tcgetattr(fd, &settings) }
            cfmakeraw(&settings)
            try Posix.call32("tcsetattr(\(path))") { tcsetattr(fd, TCSANOW, &settings) }
            // Whatever was waiting belongs to an earlier connection.
            _ = tcflush(fd, TCIOFLUSH)
            return fd
        } catch {
            close(fd)
            throw error
        }
    }

    /// Prepares a report descriptor and reads away the reports a previous connection left (ev3-dc does one
    /// throw-away read for the same reason).
    static func reports(_ fd: Int32) throws(EV3LinkError) -> Int32 {
        do throws(EV3LinkError) {
            try Posix.configure(fd)
            for _ in 0..<64 {
                guard let stale = try Posix.read(fd, upTo: 2 * EV3USBReport.inputSize), !stale.isEmpty else { break }
            }
            return fd
        } catch {
            close(fd)
            throw error
        }
    }

    private static func openDevice(_ path: String, _ name: String, flags: Int32 = 0) throws(EV3LinkError) -> Int32 {
        let fd = try Posix.call32(name) { Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC | flags) }
        return fd
    }
}
