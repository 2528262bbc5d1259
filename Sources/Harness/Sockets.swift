#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small socket helpers for finding a free TCP or UDP port and checking that a listener is up.
public enum LocalPorts {
    /// Asks the kernel for a free TCP port on 127.0.0.1 (bind to port 0, read it back, close).
    public static func free() throws -> Int {
        try freePort(try makeSocket())
    }

    /// Asks the kernel for a free UDP port (bind to port 0 on every interface, read it back, close).
    public static func freeUDP() throws -> Int {
        #if os(Linux)
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_DGRAM, 0)
        #endif
        guard fd >= 0 else { throw TestFailure("socket() failed (errno \(errno))") }
        return try freePort(fd, any: true)
    }

    private static func freePort(_ fd: Int32, any: Bool = false) throws -> Int {
        defer { close(fd) }
        var address = loopback(port: 0)
        if any { address.sin_addr.s_addr = 0 }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw TestFailure("bind to 127.0.0.1:0 failed (errno \(errno))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw TestFailure("getsockname failed (errno \(errno))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port` right now.
    public static func accepts(port: Int) -> Bool {
        guard let fd = try? makeSocket() else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result == 0
    }

    private static func makeSocket() throws -> Int32 {
        #if os(Linux)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw TestFailure("socket() failed (errno \(errno))") }
        return fd
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
