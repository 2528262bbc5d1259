import Glibc

/// The WiFi brick's unlock: after the TCP connect it reads one request containing `ET /target?sn=` (the
/// serial is not checked) and answers exactly `Accept:EV340\r\n\r\n`; frames follow. Bytes sent before the
/// answer are lost, so nothing goes out until it arrives.
enum WiFiUnlock {
    /// The brick's answer, 16 bytes.
    static let accept = Array("Accept:EV340\r\n\r\n".utf8)

    /// The request, in ev3duder's form (what the brick's own software sends).
    static func request(serial: String?) -> [UInt8] {
        Array("GET /target?sn=\((serial ?? "").uppercased()) VMTP1.0\nProtocol: EV3".utf8)
    }

    /// Where the exchange stands after `received`.
    enum Progress: Equatable {
        /// Fewer bytes than the answer so far, all matching it.
        case waiting
        /// Unlocked; the bytes after the answer belong to the first frame.
        case accepted(leftover: [UInt8])
        /// Something else came back.
        case refused(String)
    }

    /// Checks what arrived so far against the answer.
    static func progress(_ received: [UInt8]) -> Progress {
        let compared = min(received.count, accept.count)
        guard received.prefix(compared).elementsEqual(accept.prefix(compared)) else {
            let text = String(decoding: received.prefix(40), as: UTF8.self)
            return .refused("unexpected answer \(text.debugDescription)")
        }
        return received.count < accept.count ? .waiting : .accepted(leftover: Array(received.dropFirst(accept.count)))
    }

    /// Sends the request and waits for the answer, up to the context's deadline.
    static func perform(
        on fd: Int32, serial: String?, context: OpenContext
    ) throws(EV3LinkError) -> FrameChannel.Opened {
        var outgoing = request(serial: serial)[...]
        while !outgoing.isEmpty {
            let written = try Posix.write(fd, outgoing, socket: true)
            outgoing = outgoing.dropFirst(written)
            if !outgoing.isEmpty { try wait(fd, Int16(POLLOUT), context) }
        }
        var received: [UInt8] = []
        while true {
            try wait(fd, Int16(POLLIN), context)
            guard let chunk = try Posix.read(fd, upTo: 256) else { continue }
            guard !chunk.isEmpty else { throw .handshake("the brick closed the connection instead of answering") }
            received += chunk
            switch progress(received) {
            case .waiting: continue
            case .accepted(let leftover): return FrameChannel.Opened(fd: fd, leftover: leftover)
            case .refused(let detail): throw .handshake(detail)
            }
        }
    }

    private static func wait(_ fd: Int32, _ events: Int16, _ context: OpenContext) throws(EV3LinkError) {
        do throws(EV3LinkError) {
            try context.wait(for: fd, events: events)
        } catch {
            if case .connectTimedOut = error { throw .handshake("no Accept:EV340 in time") }
            throw error
        }
    }
}
