import Foundation
import Glibc
import Synchronization

/// A simulator thread that can be told to stop: its waits watch a pipe that `stop()` writes to.
final class SimThread: Sendable {
    private let stopping = Atomic(false)
    private let readFD: Int32
    private let writeFD: Int32

    /// Starts `body` on a new thread; `body` returns when `isStopping` turns true.
    init(name: String, body: @escaping @Sendable (SimThread) -> Void) {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) != 0 { fds = [-1, -1] }
        readFD = fds[0]
        writeFD = fds[1]
        for fd in fds where fd >= 0 { SimIO.nonBlocking(fd) }
        let thread = Thread { [self] in body(self) }
        thread.name = name
        thread.start()
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Asks the thread to finish.
    func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    /// Waits up to `milliseconds` for `fd` to become readable (or hang up); false on timeout or stop.
    func wait(for fd: Int32, milliseconds: Int32) -> Bool {
        guard !isStopping else { return false }
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 2, milliseconds) > 0 else { return false }
        return !isStopping && fds[0].revents != 0
    }

    /// Sleeps up to `milliseconds`, waking early on stop.
    func sleep(milliseconds: Int32) {
        guard !isStopping else { return }
        var fds = [pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 1, milliseconds)
    }
}
