import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A named pipe standing where a file the bridge opens should be (a TLS `ca_file`): libmosquitto's check of
/// the file, while the bridge builds its MQTT client, blocks in `open` until the test lets it go, which holds
/// the bridge at a known point of its start-up.
public struct Fifo: Sendable {
    /// The pipe's path, for the config.
    public let path: String
    private let directory: TemporaryDirectory

    /// Creates the pipe in a fresh temporary folder; `remove()` deletes both.
    public init(name: String) throws {
        directory = try TemporaryDirectory(prefix: "fifo")
        path = directory.file(name)
        guard mkfifo(path, 0o600) == 0 else { throw TestFailure("mkfifo \(path) failed (errno \(errno))") }
    }

    /// Deletes the pipe and its folder.
    public func remove() { directory.remove() }

    /// Waits until a thread of process `pid` sleeps in opening a FIFO (the kernel names that wait
    /// `wait_for_partner`), without opening the pipe, which would let it go.
    public static func waitForBlockedOpen(pid: Int32, timeout: Duration = .seconds(15)) async throws {
        try await waitUntil("process \(pid) to block opening a FIFO", timeout: timeout) {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return tasks.contains { task in
                let wchan = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8)
                return wchan == "wait_for_partner"
            }
        }
    }

    /// Puts a regular file with `contents` at the pipe's path, then lets the blocked `open` of the pipe go:
    /// that reader sees an empty file, every later `open` of the path the real one. A reader that is gone
    /// (the process died) is left for the caller's own checks to notice.
    public func release(replacingWith contents: String) throws {
        let held = directory.file("held-fifo")
        guard link(path, held) == 0 else { throw TestFailure("link \(path) failed (errno \(errno))") }
        defer { unlink(held) }
        let real = try directory.write("real-file", contents)
        guard rename(real, path) == 0 else { throw TestFailure("rename over \(path) failed (errno \(errno))") }
        let fd = open(held, O_WRONLY | O_NONBLOCK)
        if fd >= 0 {
            close(fd)
        } else if errno != ENXIO {
            throw TestFailure("open \(held) for writing failed (errno \(errno))")
        }
    }
}
