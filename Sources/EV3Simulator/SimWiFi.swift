import EV3Protocol
import Glibc

extension EV3BrickSimulator {
    /// The unlock string the brick looks for in the first read (`c_wifi.c`: `strstr(buf, "ET /target?sn=")`).
    static let unlockMarker = Array("ET /target?sn=".utf8)
    /// The brick's answer.
    static let accept = Array("Accept:EV340\r\n\r\n".utf8)

    /// Listens on TCP like the brick's WiFi side: one client at a time (backlog 1), unlock, then frames.
    /// Returns the port (pass 0 for a free one).
    public func startWiFi(host: String = "127.0.0.1", port: Int = 0) throws(EV3SimulatorError) -> Int {
        guard var address = SimIO.address(host, port) else { throw .badAddress(host) }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SimIO.failure("socket") }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 1) == 0 else {
            let error = SimIO.failure("bind/listen \(host):\(port)")
            close(fd)
            throw error
        }
        SimIO.nonBlocking(fd)
        let boundPort = SimIO.boundPort(fd)
        adopt(SimThread(name: "ev3-sim wifi") { [self] thread in
            while !thread.isStopping {
                guard thread.wait(for: fd, milliseconds: 100) else { continue }
                let client = Glibc.accept(fd, nil, nil)
                guard client >= 0 else { continue }
                SimIO.nonBlocking(client)
                var on: Int32 = 1
                _ = setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                if !control.withLock({ $0.poweredOff }), unlock(client, thread: thread) {
                    serve(client, framing: .stream, socket: true, thread: thread)
                }
                close(client)
            }
            close(fd)
        })
        return boundPort
    }

    /// Reads until a read holds the unlock string, then answers; the rest of that read is discarded, as on
    /// the brick. False if the client leaves first.
    private func unlock(_ fd: Int32, thread: SimThread) -> Bool {
        let generation = control.withLock { $0.dropGeneration }
        while !thread.isStopping, control.withLock({ $0.dropGeneration == generation }) {
            guard thread.wait(for: fd, milliseconds: 50), let chunk = SimIO.read(fd, upTo: 100) else { continue }
            if chunk.isEmpty { return false }
            let found = chunk.count >= Self.unlockMarker.count
                && (0...(chunk.count - Self.unlockMarker.count)).contains { chunk[$0..<$0 + Self.unlockMarker.count].elementsEqual(Self.unlockMarker) }
            if found { return SimIO.writeAll(fd, Self.accept, socket: true) }
        }
        return false
    }

    /// Sends the brick's beacon to `host:port` every `interval` from an ephemeral UDP port, as the brick
    /// broadcasts it, naming `tcpPort`; counts the answers that come back to that port.
    public func startBeacon(
        to host: String, port: Int, tcpPort: Int, every interval: Duration = .seconds(5)
    ) throws(EV3SimulatorError) {
        guard let target = SimIO.address(host, port) else { throw .badAddress(host) }
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw SimIO.failure("socket") }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &one, socklen_t(MemoryLayout<Int32>.size))
        SimIO.nonBlocking(fd)
        let milliseconds = Int32(clamping: Int(seconds(interval) * 1000))
        adopt(SimThread(name: "ev3-sim beacon") { [self] thread in
            while !thread.isStopping {
                if !control.withLock({ $0.poweredOff }) {
                    let (serial, name) = brick.withLock { ($0.serialNumber, $0.name) }
                    let datagram = Array("Serial-Number: \(serial)\r\nPort: \(tcpPort)\r\nName: \(name)\r\nProtocol: EV3\r\n".utf8)
                    _ = withUnsafePointer(to: target) { pointer in
                        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            sendto(fd, datagram, datagram.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                        }
                    }
                }
                let deadline = ContinuousClock.now + interval
                while !thread.isStopping, ContinuousClock.now < deadline {
                    if thread.wait(for: fd, milliseconds: min(milliseconds, 100)), let answer = SimIO.read(fd, upTo: 64), !answer.isEmpty {
                        control.withLock { $0.beaconAnswers += 1 }
                    }
                }
            }
            close(fd)
        })
    }
}
