import Foundation

/// Command-line tools the harness runs (mosquitto, dbus-daemon, openssl).
public enum TestTools {
    /// Finds `name` on PATH or in the usual system folders; a missing tool fails the test with a hint.
    public static func locate(_ name: String, package: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"]
        guard let found = folders.map({ "\($0)/\(name)" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            throw TestFailure("\(name) not found on PATH or in /usr/bin; install it (apt-get install \(package))")
        }
        return found
    }

    /// Runs a tool to completion; a non-zero exit fails with its output. The output goes to a log in `logs`.
    public static func run(_ tool: String, _ arguments: [String], logs: TemporaryDirectory) async throws {
        let log = logs.file("\((tool as NSString).lastPathComponent)-\(UUID().uuidString.prefix(8)).log")
        let child = try ChildProcess(executable: tool, arguments: arguments, stdoutPath: log, stderrPath: log)
        let status = try await child.waitForExit(timeout: .seconds(30))
        guard status == 0 else {
            throw TestFailure("\(tool) \(arguments.joined(separator: " ")) exited with status \(status):\n\(child.stdout)")
        }
    }
}
