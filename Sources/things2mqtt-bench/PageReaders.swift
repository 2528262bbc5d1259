import Glibc
import Harness
import Synchronization
import Support

/// The fan-out's pages as the load they are: websocket clients on raw sockets, read by one thread of their own
/// that counts each page's frames and never parses them. A browser does its work on another machine; here the
/// pages share two cores with the daemon and the measuring client, so they must cost as little as possible
/// (and never take a place on the cooperative pool the measuring client runs on).
final class PageReaders: Sendable {
    private let sockets: [RawWebSocketClient]
    private let counts: Mutex<[Int]>
    private let stopped = Atomic<Bool>(false)

    /// Connects `pages` sockets to the daemon's `api`, past the upgrade, and starts reading them.
    static func connect(pages: Int, port: Int) async throws -> PageReaders {
        var sockets: [RawWebSocketClient] = []
        for _ in 0..<pages {
            let socket = try RawWebSocketClient(port: port, receiveBuffer: nil)
            try await socket.handshake(first: #"{"auth":""}"#)
            sockets.append(socket)
        }
        return PageReaders(sockets)
    }

    private init(_ sockets: [RawWebSocketClient]) {
        self.sockets = sockets
        counts = Mutex([Int](repeating: 0, count: sockets.count))
        let descriptors = sockets.map(\.descriptor)
        DetachedThread.start(name: "bench-pages") { [self] in read(descriptors) }
    }

    /// Frames each page received so far.
    var frames: [Int] { counts.withLock { $0 } }

    /// Ends the reading thread at its next wake-up (at most 100 ms later).
    func stop() { stopped.store(true, ordering: .relaxed) }

    private func read(_ descriptors: [Int32]) {
        var parsers = [FrameBoundaries](repeating: FrameBoundaries(), count: descriptors.count)
        var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while !stopped.load(ordering: .relaxed) {
            guard poll(&polled, nfds_t(polled.count), 100) > 0 else { continue }
            for index in polled.indices where polled[index].revents != 0 {
                let count = recv(polled[index].fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                guard count > 0 else {
                    if count == 0 { polled[index].fd = -1 }
                    continue
                }
                let frames = parsers[index].feed(buffer[..<count])
                if frames > 0 { counts.withLock { $0[index] += frames } }
            }
        }
    }
}

/// Finds where server-to-client websocket frames end in a byte stream (read after the upgrade), without looking at
/// their payloads: the count is all the fan-out needs.
struct FrameBoundaries {
    /// Bytes of the current frame's header read so far, and the payload bytes still to skip.
    private var header: [UInt8] = []
    private var remaining = 0

    /// Takes the next bytes; returns how many frames ended in them.
    mutating func feed(_ bytes: ArraySlice<UInt8>) -> Int {
        var index = bytes.startIndex
        var frames = 0
        while index < bytes.endIndex {
            if remaining > 0 {
                let skip = min(remaining, bytes.endIndex - index)
                remaining -= skip
                index += skip
                if remaining == 0 { frames += 1 }
                continue
            }
            header.append(bytes[index])
            index += 1
            guard let length = Self.payloadLength(header) else { continue }
            header = []
            if length == 0 { frames += 1 } else { remaining = length }
        }
        return frames
    }

    /// The payload length once the header is complete (server frames carry no mask), else nil.
    private static func payloadLength(_ header: [UInt8]) -> Int? {
        guard header.count >= 2 else { return nil }
        let short = Int(header[1] & 0x7F)
        switch short {
        case 126:
            guard header.count == 4 else { return nil }
            return Int(header[2]) << 8 | Int(header[3])
        case 127:
            guard header.count == 10 else { return nil }
            return header[2...].reduce(0) { $0 << 8 | Int($1) }
        default:
            return short
        }
    }
}
