import Foundation
import Harness

/// A device simulator in a process of its own (`things2mqtt-sim`, built beside the daemon), so the load this
/// process generates does not slow the simulator's answers.
final class SimulatorProcess: Sendable {
    let child: ChildProcess
    let folder: TemporaryDirectory
    /// The simulated cloud's API, `http://127.0.0.1:<port>/v1`.
    let baseURL: String

    private init(child: ChildProcess, folder: TemporaryDirectory, baseURL: String) {
        self.child = child
        self.folder = folder
        self.baseURL = baseURL
    }

    /// A LIFX cloud with `lights` generated lights and no rate limit to speak of.
    static func lifx(lights: Int, token: String) async throws -> SimulatorProcess {
        let folder = try TemporaryDirectory(prefix: "bench-sim")
        let child = try ChildProcess(
            executable: try BridgeProcess.simulatorPath(),
            arguments: ["lifx", "--port", "0", "--token", token, "--lights", "\(lights)", "--rate-limit", "1000000"],
            stdoutPath: folder.file("stdout.log"), stderrPath: folder.file("stderr.log"))
        let url = try await waitForValue("the LIFX simulator to listen", timeout: .seconds(20)) { () -> String? in
            guard child.isRunning else { throw TestFailure("things2mqtt-sim exited: \(child.stdout)") }
            guard let line = child.stdout.split(separator: "\n").first(where: { $0.contains("listening on ") }) else { return nil }
            return line.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init)
        }
        return SimulatorProcess(child: child, folder: folder, baseURL: url)
    }

    func stop() {
        child.signal(SIGTERM)
        folder.remove()
    }
}
