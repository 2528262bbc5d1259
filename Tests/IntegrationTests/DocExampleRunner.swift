import Foundation
import Testing
import TestSupport

/// What running one example must do in the demo.
enum Expectation: Sendable {
    /// A `mosquitto_pub` line: `check` waits for its effect, looking only at what came after the mark taken just
    /// before the line ran; no `command_failed` may follow.
    case effect(@Sendable (DemoRun, DemoRun.Mark) async throws -> Void)
    /// A `mosquitto_sub` line: `count` messages arrive within `seconds`, each satisfying `matching(topic, payload)`.
    /// `trigger`, when given, runs once the broker has the subscription (what makes the message come).
    case receives(
        count: Int, seconds: Int, matching: @Sendable (String, String) -> Bool,
        trigger: (@Sendable (DemoRun) async throws -> Void)? = nil)
}

/// Runs examples through a shell with the real `mosquitto_pub`/`mosquitto_sub`, adding only the broker's
/// address and, for a listener, `-C`/`-W` so that it ends.
struct DocExampleRunner {
    let run: DemoRun
    let folder: TemporaryDirectory
    /// Listeners started in the background (`&`) or still going, checked at the end of their block.
    private var pending: [(DocExample, ChildProcess, count: Int, matching: @Sendable (String, String) -> Bool)] = []

    init(run: DemoRun, folder: TemporaryDirectory) {
        self.run = run
        self.folder = folder
    }

    /// Runs one example and checks its expectation; `Issue`s name the example.
    mutating func perform(_ example: DocExample, _ expectation: Expectation) async throws {
        let port = run.rig.broker.port
        switch expectation {
        case .effect(let check):
            let mark = run.mark()
            let shell = try start(example, example.command + " -h 127.0.0.1 -p \(port)")
            let status = try await shell.waitForExit(timeout: .seconds(10))
            #expect(status == 0, "\(example) exited with \(status): \(shell.stderr)")
            do {
                try await check(run, mark)
            } catch {
                Issue.record("\(example): \(error)")
            }
            let failures = run.failures(after: mark)
            #expect(failures.isEmpty, "\(example) was refused: \(failures)")
        case .receives(let count, let seconds, let matching, let trigger):
            let filter = try Self.filter(of: example)
            let before = run.rig.subscriptions(to: filter)
            let shell = try start(example, example.command + " -h 127.0.0.1 -p \(port) -C \(count) -W \(seconds)")
            try await waitUntil("\(example) to subscribe to \(filter)", timeout: .seconds(10)) {
                run.rig.subscriptions(to: filter) > before || !shell.isRunning
            }
            if let trigger { try await trigger(run) }
            pending.append((example, shell, count, matching))
            if !example.background { try await finishListeners() }
        }
    }

    /// Waits for every pending listener and checks what it received.
    mutating func finishListeners() async throws {
        for (example, shell, count, matching) in pending {
            _ = try await shell.waitForExit(timeout: .seconds(60))
            let received = shell.stdout.split(separator: "\n").map { line in
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                return (topic: parts[0], payload: parts.count > 1 ? parts[1] : "")
            }
            #expect(received.count == count, "\(example) received \(received.count) of \(count) messages: \(shell.stdout)")
            for message in received where !matching(message.topic, message.payload) {
                Issue.record("\(example) received an unexpected message: \(message.topic) \(message.payload)")
            }
        }
        pending = []
    }

    private func start(_ example: DocExample, _ line: String) throws -> ChildProcess {
        let name = "\(example.file.replacingOccurrences(of: "/", with: "_"))-\(example.line)"
        return try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", line], stdoutPath: folder.file(name + ".out"), stderrPath: folder.file(name + ".err"))
    }

    /// The topic filter after `-t`, unquoted.
    static func filter(of example: DocExample) throws -> String {
        guard let range = example.command.range(of: #" -t ('[^']*'|"[^"]*"|\S+)"#, options: .regularExpression) else {
            throw TestFailure("\(example) has no -t")
        }
        let value = example.command[range].dropFirst(4)
        return value.first == "'" || value.first == "\"" ? String(value.dropFirst().dropLast()) : String(value)
    }
}
