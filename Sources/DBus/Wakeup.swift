import Glibc

/// The loop thread's doorbell: a non-blocking pipe in its poll set that other threads write a byte into
/// after queueing work. (Glibc's module does not export eventfd; a pipe does the same job.)
final class Wakeup: Sendable {
    let readFD: Int32
    private let writeFD: Int32

    init() throws(DBusError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw DBusError(.connectionFailed, String(cString: strerror(errno)), operation: "create the wakeup pipe")
        }
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
