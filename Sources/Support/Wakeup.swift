import Glibc

/// A poll loop's doorbell: a non-blocking pipe in its poll set that other threads write a byte into after
/// queueing work or asking it to stop. (Glibc's module does not export eventfd; a pipe does the same job.)
public final class Wakeup: Sendable {
    /// The end the loop polls.
    public let readFD: Int32
    private let writeFD: Int32

    /// A new pipe; nil when the system refuses one (`errno` says why).
    public init?() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        readFD = fds[0]
        writeFD = fds[1]
        // Glibc's module has no pipe2, so the flags are set one by one.
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Wakes the loop. A full pipe (EAGAIN) is fine: the loop is already due to wake.
    public func ring() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    /// Empties the pipe so the next poll blocks again.
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readFD, &buffer, buffer.count) > 0 {}
    }
}
