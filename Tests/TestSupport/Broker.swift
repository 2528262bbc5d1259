import Foundation
import Synchronization

/// A real `mosquitto` broker on 127.0.0.1 and a free port, started by the test and stopped on deinit.
public final class Broker: Sendable {
    /// The listening port; `restart()` keeps it.
    public let port: Int
    /// Always `127.0.0.1`.
    public let host = "127.0.0.1"
    /// Where the config, logs and any persistence live.
    public let directory: TemporaryDirectory
    private let executable: String
    private let child: Mutex<ChildProcess?>

    /// Starts a broker; with `persistence` off, retained messages die with the broker process.
    public static func start(persistence: Bool = false) async throws -> Broker {
        let executable = try locateMosquitto()
        let directory = try TemporaryDirectory(prefix: "broker")
        var lastLog = ""
        for _ in 0..<5 {
            let port = try LocalPorts.free()
            try writeConfig(directory: directory, port: port, persistence: persistence)
            let child = try launch(executable, directory)
            if try await waitUntilListening(child, port: port) {
                return Broker(port: port, directory: directory, executable: executable, child: child)
            }
            lastLog = child.stdout
            child.signal(SIGKILL)
        }
        throw TestFailure("mosquitto did not start; last log:\n\(lastLog)")
    }

    private init(port: Int, directory: TemporaryDirectory, executable: String, child: ChildProcess) {
        self.port = port
        self.directory = directory
        self.executable = executable
        self.child = Mutex(child)
    }

    deinit {
        child.withLock { $0?.signal(SIGKILL) }
        directory.remove()
    }

    /// `mqtt://127.0.0.1:<port>`.
    public var url: String { "mqtt://\(host):\(port)" }

    /// Whether the broker process is running.
    public var isRunning: Bool { child.withLock { $0?.isRunning ?? false } }

    /// The broker's log so far.
    public var log: String { child.withLock { $0?.stdout ?? "" } }

    /// Stops the broker with SIGTERM and waits for it to exit.
    public func stop() async throws {
        guard let running = child.withLock({ $0 }) else { return }
        running.signal(SIGTERM)
        try await running.waitForExit()
    }

    /// Kills the broker with SIGKILL and waits for it to exit.
    public func kill() async throws {
        guard let running = child.withLock({ $0 }) else { return }
        running.signal(SIGKILL)
        try await running.waitForExit()
    }

    /// Stops the broker if it runs, then starts it again on the same port.
    public func restart() async throws {
        try await stop()
        var lastLog = ""
        for _ in 0..<20 {
            let next = try Self.launch(executable, directory)
            if try await Self.waitUntilListening(next, port: port) {
                child.withLock { $0 = next }
                return
            }
            lastLog = next.stdout
            try await Task.sleep(for: .milliseconds(250))
        }
        throw TestFailure("mosquitto did not restart on port \(port); last log:\n\(lastLog)")
    }

    /// Finds `mosquitto` on PATH or in `/usr/sbin`; a missing broker fails the test.
    public static func locateMosquitto() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/mosquitto" } + ["/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TestFailure("mosquitto not found on PATH or in /usr/sbin; install it (apt-get install mosquitto) or run Tests/run.sh")
        }
        return found
    }

    private static func writeConfig(directory: TemporaryDirectory, port: Int, persistence: Bool) throws {
        var lines = [
            "listener \(port) 127.0.0.1", "allow_anonymous true", "log_dest stdout",
            "log_type error", "log_type warning", "log_type notice", "log_type information",
        ]
        if persistence {
            lines += ["persistence true", "persistence_location \(directory.path)/"]
        } else {
            lines.append("persistence false")
        }
        // As root mosquitto would switch to the `mosquitto` user, which cannot write the test's folder.
        if getuid() == 0 { lines.append("user root") }
        try directory.write("mosquitto.conf", lines.joined(separator: "\n") + "\n")
    }

    private static func launch(_ executable: String, _ directory: TemporaryDirectory) throws -> ChildProcess {
        try ChildProcess(
            executable: executable, arguments: ["-c", directory.file("mosquitto.conf")],
            stdoutPath: directory.file("mosquitto.log"), stderrPath: directory.file("mosquitto.log"))
    }

    /// True once the port accepts connections; false if the broker exited (port taken) first.
    private static func waitUntilListening(_ child: ChildProcess, port: Int) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            guard child.isRunning else { return false }
            if LocalPorts.accepts(port: port) { return child.isRunning }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("mosquitto on port \(port) did not accept connections within 10 s:\n\(child.stdout)")
    }
}
