import EV3Protocol
import Foundation
import Glibc
import Synchronization
import Testing

/// Runs blocking work on its own thread, so tests never block the cooperative pool.
func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// Two connected descriptors of `type` (`SOCK_STREAM`, `SOCK_SEQPACKET`).
func socketPair(_ type: __socket_type) throws -> (Int32, Int32) {
    var fds: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(type.rawValue), 0, &fds) == 0 else {
        throw TestError("socketpair failed: errno \(errno)")
    }
    return (fds[0], fds[1])
}

/// A failure of the test's own setup.
struct TestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A client that speaks raw frames to a simulator over a stream descriptor, as a test's probe.
final class RawClient: Sendable {
    let fd: Int32
    private let framer = Mutex(EV3Framer())

    init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// Writes bytes as they are.
    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// The next whole frame, or nil if none comes within `milliseconds`.
    func receive(within milliseconds: Int32 = 10_000) async -> [UInt8]? {
        await onThread { [self] in
            let deadline = ContinuousClock.now + .milliseconds(Int(milliseconds))
            while true {
                if let frame = try? framer.withLock({ try $0.next() }) { return frame }
                let left = deadline - .now
                guard left > .zero else { return nil }
                var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
                guard poll(&fds, 1, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000) + 1) > 0
                else { return nil }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(fd, &buffer, buffer.count)
                guard count > 0 else { return nil }
                framer.withLock { $0.append(buffer.prefix(count)) }
            }
        }
    }

    /// Sends a frame and returns the reply.
    func exchange(_ frame: [UInt8]) async -> [UInt8]? {
        send(frame)
        return await receive()
    }
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes. The timeout is long because the test
/// process shares two cores with a whole suite of daemons and brokers; it only matters when a test fails.
func eventually(
    timeout: Duration = .seconds(30), _ what: String, _ condition: @Sendable () async -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while !(await condition()) {
        guard ContinuousClock.now < deadline else { throw TestError("timed out waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(10))
    }
}
