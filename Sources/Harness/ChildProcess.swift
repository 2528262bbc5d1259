import Foundation
import Synchronization

/// A process started by a test, with stdout and stderr captured in files.
///
/// Spawned with `posix_spawn` and an empty signal mask: Swift's worker threads block signals, and a
/// child inheriting that mask (as with Foundation's `Process`) would never see SIGTERM or SIGHUP.
public final class ChildProcess: Sendable {
    private let exitStatus = Mutex<Int32?>(nil)
    /// Where the process's stdout goes.
    public let stdoutPath: String
    /// Where the process's stderr goes.
    public let stderrPath: String
    /// The executable, for messages.
    public let executable: String
    /// The process id.
    public let pid: Int32

    /// Launches `executable`; the exit status is 128 + signal number when a signal ended the process.
    public init(
        executable: String, arguments: [String], stdoutPath: String, stderrPath: String,
        environment: [String: String]? = nil
    ) throws {
        self.executable = executable
        self.stdoutPath = stdoutPath
        self.stderrPath = stderrPath
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if stderrPath == stdoutPath {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        // Nothing else of this process goes with the child: the sockets of the test process (NIO accepts them
        // without close-on-exec) would live on in it, and a connection the test closed would stay open.
        // glibc (2.34 on) has the action, but its header declares it only for _GNU_SOURCE, which Swift's Glibc
        // module does not set.
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            throw TestFailure("this C library cannot close a spawned child's other descriptors")
        }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGUSR1, SIGUSR2, SIGCHLD] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let environment = environment ?? ProcessInfo.processInfo.environment
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw TestFailure("cannot start \(executable): \(String(cString: strerror(rc)))") }
        self.pid = pid
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// The exit status once the process has exited (reaping it), nil while it runs.
    public var status: Int32? {
        exitStatus.withLock { known in
            if known == nil {
                var raw: Int32 = 0
                if waitpid(pid, &raw, WNOHANG) == pid {
                    let signal = raw & 0x7f
                    known = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
                }
            }
            return known
        }
    }

    /// Whether the process has not exited yet.
    public var isRunning: Bool { status == nil }

    /// Sends a signal.
    public func signal(_ number: Int32) {
        guard isRunning else { return }
        kill(pid, number)
    }

    /// Waits for the process to exit and returns its status.
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(15)) async throws -> Int32 {
        try await waitForValue("\(executable) (pid \(pid)) to exit", timeout: timeout) { status }
    }

    /// Everything written to stdout so far.
    public var stdout: String { Self.read(stdoutPath) }

    /// Everything written to stderr so far.
    public var stderr: String { Self.read(stderrPath) }

    private static func read(_ path: String) -> String {
        (FileManager.default.contents(atPath: path)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}

/// A fresh temporary directory, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Creates a directory under the system's temporary folder.
    public init(prefix: String) throws {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/\(prefix)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of a file inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes a text file inside the directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let target = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Deletes the directory and everything in it.
    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
