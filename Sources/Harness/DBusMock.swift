import Foundation

/// A python-dbusmock process that owns a name on a private bus and exports one mock object, whose
/// `org.freedesktop.DBus.Mock` interface (`AddMethod`, `EmitSignal`, …) the test drives over D-Bus.
public final class DBusMock: Sendable {
    /// The bus name the mock claims.
    public let name: String
    /// The mock object's path.
    public let path: String
    /// The mock object's main interface.
    public let interface: String
    private let child: ChildProcess
    private let directory: TemporaryDirectory

    /// Launches `/usr/bin/python3 -m dbusmock` on the daemon's bus (Debian's python3-dbusmock; another
    /// `python3` first on PATH may lack the `dbus` module). The caller waits for the name to be owned.
    public init(
        on daemon: DBusDaemon, name: String = "com.example.Mock", path: String = "/com/example/Mock",
        interface: String = "com.example.Mock"
    ) throws {
        self.name = name
        self.path = path
        self.interface = interface
        directory = try TemporaryDirectory(prefix: "dbusmock")
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = daemon.address
        for key in ["DBUS_SYSTEM_BUS_ADDRESS", "PYTHONPATH", "PYTHONHOME"] { environment[key] = nil }
        child = try ChildProcess(
            executable: "/usr/bin/python3", arguments: ["-m", "dbusmock", name, path, interface],
            stdoutPath: directory.file("mock.log"), stderrPath: directory.file("mock.log"), environment: environment)
    }

    deinit {
        child.signal(SIGCONT)
        child.signal(SIGKILL)
        directory.remove()
    }

    /// The process id.
    public var pid: Int32 { child.pid }

    /// Whether the process is running.
    public var isRunning: Bool { child.isRunning }

    /// What the mock logged (calls, Python errors).
    public var log: String { child.stdout }

    /// Freezes the process (SIGSTOP): calls to it stay unanswered until `resume()`.
    public func pause() { child.signal(SIGSTOP) }

    /// Lets a paused process run again.
    public func resume() { child.signal(SIGCONT) }

    /// Kills the process and waits for it to exit; the bus then drops its names.
    public func kill() async throws {
        child.signal(SIGCONT)
        child.signal(SIGKILL)
        try await child.waitForExit()
    }
}
