import Foundation

/// The built `things2mqtt` binary running as a child process with a config in a temporary folder.
public final class BridgeProcess: Sendable {
    /// The folder holding the config, the alias file and the captured output.
    public let directory: TemporaryDirectory
    /// The config file the bridge was started with.
    public let configPath: String
    /// The running binary.
    public let child: ChildProcess

    /// Writes `config` (and any `files`, by name) to a fresh folder and runs `things2mqtt run --config …`;
    /// `environment` is added to this process's environment. A `launcher` (`["/usr/bin/unshare", "--pid", …]`)
    /// runs the bridge through that command.
    public static func start(
        config: String, files: [String: String] = [:], arguments: [String] = [], environment: [String: String] = [:],
        launcher: [String] = []
    ) throws -> BridgeProcess {
        let directory = try TemporaryDirectory(prefix: "bridge")
        for (name, text) in files { try directory.write(name, text) }
        let configPath = try directory.write("config.yaml", config)
        let command = launcher + [try binaryPath(), "run", "--config", configPath] + arguments
        let child = try ChildProcess(
            executable: command[0], arguments: Array(command.dropFirst()),
            stdoutPath: directory.file("stdout.log"), stderrPath: directory.file("stderr.log"),
            environment: ProcessInfo.processInfo.environment.merging(environment) { _, added in added })
        return BridgeProcess(directory: directory, configPath: configPath, child: child)
    }

    /// Writes `files` to a fresh folder and runs `things2mqtt` with the `arguments` made from that folder, for
    /// commands other than `run` (`configPath` is then the folder's `config.yaml`, which the command may write).
    public static func launch(
        files: [String: String] = [:], environment: [String: String] = [:], arguments: (TemporaryDirectory) -> [String]
    ) throws -> BridgeProcess {
        let directory = try TemporaryDirectory(prefix: "bridge")
        for (name, text) in files { try directory.write(name, text) }
        let child = try ChildProcess(
            executable: try binaryPath(), arguments: arguments(directory),
            stdoutPath: directory.file("stdout.log"), stderrPath: directory.file("stderr.log"),
            environment: ProcessInfo.processInfo.environment.merging(environment) { _, added in added })
        return BridgeProcess(directory: directory, configPath: directory.file("config.yaml"), child: child)
    }

    private init(directory: TemporaryDirectory, configPath: String, child: ChildProcess) {
        self.directory = directory
        self.configPath = configPath
        self.child = child
    }

    deinit {
        child.signal(SIGKILL)
        directory.remove()
    }

    /// What the bridge wrote to stderr (its log) so far.
    public var stderr: String { child.stderr }

    /// Whether the process is still running.
    public var isRunning: Bool { child.isRunning }

    /// Waits until the bridge has published its retained `bridge/devices`, which it does after subscribing.
    public func waitUntilReady(on broker: Broker, base: String = "t2m", timeout: Duration = .seconds(15)) async throws {
        try await waitUntil("\(base)/bridge/devices from things2mqtt", timeout: timeout, every: .milliseconds(50)) {
            guard child.isRunning else {
                throw TestFailure("things2mqtt exited with status \(child.status ?? -1):\n\(stderr)")
            }
            return try await broker.retained("\(base)/bridge/devices") != nil
        }
    }

    /// Sends SIGTERM and returns the exit status (128 + signal if a signal ended it).
    public func terminate(timeout: Duration = .seconds(15)) async throws -> Int32 {
        child.signal(SIGTERM)
        return try await child.waitForExit(timeout: timeout)
    }

    /// Sends SIGKILL and waits for the process to be gone.
    public func kill9() async throws {
        child.signal(SIGKILL)
        try await child.waitForExit()
    }

    /// Sends SIGHUP (config reload).
    public func sendHUP() { child.signal(SIGHUP) }

    /// Replaces the config file, e.g. before `sendHUP()`.
    public func rewriteConfig(_ text: String) throws { try directory.write("config.yaml", text) }

    /// The `things2mqtt` binary: `$THINGS2MQTT_BIN`, or the one built beside the test bundle.
    public static func binaryPath() throws -> String {
        if let override = ProcessInfo.processInfo.environment["THINGS2MQTT_BIN"] { return override }
        return try built("things2mqtt")
    }

    /// The `things2mqtt-sim` binary built beside the test bundle or the benchmark; a `$THINGS2MQTT_BIN` built
    /// elsewhere (the static release daemon) does not move it.
    public static func simulatorPath() throws -> String { try built("things2mqtt-sim") }

    /// The executable `name` in the folders around the running binary, or in `.build/debug`.
    private static func built(_ name: String) throws -> String {
        var folders: [URL] = []
        for start in [URL(fileURLWithPath: CommandLine.arguments[0]), Bundle.main.bundleURL] {
            var folder = start.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                folders.append(folder)
                folder = folder.deletingLastPathComponent()
            }
        }
        folders.append(URL(fileURLWithPath: packageRoot).appendingPathComponent(".build/debug"))
        for folder in folders {
            let candidate = folder.appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate)
            {
                return candidate
            }
        }
        throw TestFailure("\(name) not found near \(CommandLine.arguments[0]); run swift build first (or set THINGS2MQTT_BIN)")
    }

    /// The package's root folder (where `Package.swift` is).
    public static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    /// Runs the binary to completion (e.g. `check-config`) and returns its status and output.
    public static func runCommand(
        _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(30)
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let directory = try TemporaryDirectory(prefix: "cli")
        defer { directory.remove() }
        let child = try ChildProcess(
            executable: try binaryPath(), arguments: arguments, stdoutPath: directory.file("stdout"),
            stderrPath: directory.file("stderr"),
            environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new })
        let status = try await child.waitForExit(timeout: timeout)
        return (status, child.stdout, child.stderr)
    }
}
