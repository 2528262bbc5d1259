import FoundationEssentials
import Glibc
import Synchronization
import Support

/// Listens for WiFi bricks' UDP beacons on its own thread, answers each one as the brick's own software
/// does (one byte back to the beacon's source port; the open firmware ignores it, other versions may not),
/// and reports every beacon with the address it came from.
public final class EV3BeaconListener: Sendable {
    /// Every beacon heard, about one per brick every 5 s; ends after `stop()`.
    public let sightings: AsyncStream<EV3BeaconSighting>
    /// The UDP port listened on (useful when 0 was asked for).
    public let port: Int
    private let continuation: AsyncStream<EV3BeaconSighting>.Continuation
    private let wakeup: Wakeup
    private let stopping = Atomic(false)

    private init(fd: Int32, port: Int, wakeup: Wakeup) {
        (sightings, continuation) = AsyncStream.makeStream(of: EV3BeaconSighting.self, bufferingPolicy: .bufferingNewest(64))
        self.port = port
        self.wakeup = wakeup
        DetachedThread.start(name: "ev3 beacons") { [self] in loop(fd) }
    }

    /// Binds `host:port` (IPv4; 0.0.0.0 hears broadcasts on every interface) and starts listening.
    public static func start(port: Int = 3015, host: String = "0.0.0.0") throws(EV3LinkError) -> EV3BeaconListener {
        let fd = try Posix.call32("socket(AF_INET, SOCK_DGRAM)") { socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0) }
        do throws(EV3LinkError) {
            try Posix.configure(fd)
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
                throw .invalidEndpoint("\"\(host)\" is not an IPv4 address")
            }
            _ = try withUnsafePointer(to: &address) { (pointer) throws(EV3LinkError) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (raw) throws(EV3LinkError) in
                    try Posix.call32("bind(\(host):\(port))") { bind(fd, raw, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
            }
            return EV3BeaconListener(fd: fd, port: Int(UInt16(bigEndian: address.sin_port)), wakeup: try Posix.wakeup())
        } catch {
            close(fd)
            throw error
        }
    }

    /// Stops listening and ends `sightings`.
    public func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        wakeup.ring()
    }

    private func loop(_ fd: Int32) {
        defer {
            close(fd)
            continuation.finish()
        }
        while !stopping.load(ordering: .sequentiallyConsistent) {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeup.readFD, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 2, -1) < 0, errno != EINTR { return }
            if fds[1].revents != 0 { wakeup.drain() }
            if fds[0].revents != 0 { receiveAll(fd) }
        }
    }

    private func receiveAll(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            var source = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let count = withUnsafeMutablePointer(to: &source) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, &buffer, buffer.count, 0, $0, &length) }
            }
            guard count >= 0 else { return }
            guard let beacon = EV3Beacon(datagram: Array(buffer.prefix(count))) else { continue }
            var answer: UInt8 = 0
            _ = withUnsafePointer(to: &source) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, &answer, 1, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            guard inet_ntop(AF_INET, &source.sin_addr, &text, socklen_t(text.count)) != nil else { continue }
            let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            continuation.yield(EV3BeaconSighting(beacon: beacon, host: host))
        }
    }
}
