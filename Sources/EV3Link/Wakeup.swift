import Glibc

/// A thread's doorbell: a non-blocking pipe in its poll set that other threads write a byte into after
/// queueing work or asking it to stop.
final class Wakeup: Sendable {
    let readFD: Int32
    private let writeFD: Int32

    init() throws(EV3LinkError) {
        var fds: [Int32] = [-1, -1]
        try Posix.call32("pipe") { pipe(&fds) }
        readFD = fds[0]
        writeFD = fds[1]
        for fd in fds { try? Posix.configure(fd) }
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Wakes the thread. A full pipe (EAGAIN) is fine: the thread is already due to wake.
    func ring() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    /// Empties the pipe so the next poll blocks again.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readFD, &buffer, buffer.count) > 0 {}
    }
}
