import AsyncHTTPClient
import Foundation
import Testing
import TestSupport

/// The simulator as `deploy/demo.sh` runs it: the real binary, started by an ordinary user.
@Suite("things2mqtt-sim lifx as a process", .timeLimit(.minutes(1)))
struct SimulatorProcessTests {
    static let token = "demo-token"

    @Test("run by an ordinary user, the simulator answers GET /v1/lights/all with the demo lights")
    func servesAsOrdinaryUser() async throws {
        let folder = try TemporaryDirectory(prefix: "simulator")
        defer { folder.remove() }
        // The build folder may lie under a home only its owner can enter; a copy in an open folder runs for anyone.
        chmod(folder.path, 0o755)
        let binary = folder.file("things2mqtt-sim")
        // Copied by a child process: a copy written here would leave its descriptor open in processes other
        // tests spawn meanwhile, and executing a file open for writing fails (ETXTBSY).
        let copy = try ChildProcess(
            executable: "/bin/cp", arguments: [try BridgeProcess.simulatorPath(), binary],
            stdoutPath: folder.file("cp.log"), stderrPath: folder.file("cp.log"))
        #expect(try await copy.waitForExit() == 0, "\(copy.stdout)")
        chmod(binary, 0o755)
        let command = ["lifx", "--port", "0", "--token", Self.token]
        let child: ChildProcess
        if getuid() == 0 {
            // Root may set any socket option; only an unprivileged user shows what the demo's user meets.
            let setpriv = "/usr/bin/setpriv"
            try #require(FileManager.default.isExecutableFile(atPath: setpriv), "setpriv (util-linux) is needed to drop root")
            child = try ChildProcess(
                executable: setpriv, arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + command,
                stdoutPath: folder.file("stdout"), stderrPath: folder.file("stderr"))
        } else {
            child = try ChildProcess(
                executable: binary, arguments: command, stdoutPath: folder.file("stdout"), stderrPath: folder.file("stderr"))
        }
        let baseURL = try await waitForValue("the simulator to print its address", timeout: .seconds(20)) { () throws -> String? in
            guard child.isRunning else {
                throw TestFailure("the simulator exited with status \(child.status ?? -1):\n\(child.stderr)")
            }
            return Self.announcedURL(in: child.stdout)
        }

        var request = HTTPClientRequest(url: baseURL + "/lights/all")
        request.headers.add(name: "Authorization", value: "Bearer \(Self.token)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        var body: [UInt8] = []
        for try await chunk in response.body { body += chunk.readableBytesView }
        #expect(response.status == .ok)
        let lights = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [[String: Any]])
        let labels = Set(lights.compactMap { $0["label"] as? String })
        #expect(labels == ["Ceiling", "Floor Lamp", "Reading Lamp", "Bedside", "Dresser"])
        #expect(child.isRunning, "\(child.stderr)")

        // Commands other than the daemon get the default actions back once the command line is parsed:
        // SIGTERM ends the simulator at once.
        child.signal(SIGTERM)
        #expect(try await child.waitForExit() == 128 + SIGTERM)
    }

    /// The API root from the simulator's start-up line, `… listening on http://127.0.0.1:<port>/v1 (token: …)`.
    static func announcedURL(in output: String) -> String? {
        guard let range = output.range(of: "listening on ") else { return nil }
        let rest = output[range.upperBound...]
        guard let end = rest.firstIndex(where: { $0 == " " || $0 == "\n" }) else { return nil }
        return String(rest[..<end])
    }
}
