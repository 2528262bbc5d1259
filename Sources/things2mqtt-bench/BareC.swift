import Foundation
import Harness

/// The C programs in `bare/` (a BlueZ-shaped signal sender, the bare libdbus receiver and the bare MQTT
/// responder), compiled for this run with the system's C compiler, so the daemon is compared with plain C on the
/// same bus and the same broker.
struct BareC {
    let directory: TemporaryDirectory
    let sender: String
    let receiver: String
    let responder: String

    /// Each program and the `pkg-config` packages it builds with.
    static let programs = [
        ("bluez_sender", "dbus-1 libcrypto"), ("bare_receiver", "dbus-1"), ("bare_responder", "libmosquitto"),
    ]

    /// Where the C sources are: beside this file in the checkout, else under the current folder.
    static var sources: String {
        let beside = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("bare").path
        if FileManager.default.fileExists(atPath: beside + "/bare_receiver.c") { return beside }
        return FileManager.default.currentDirectoryPath + "/Sources/things2mqtt-bench/bare"
    }

    /// Compiles the programs into a temporary folder (`cc -O2`, flags from `pkg-config`).
    static func build() async throws -> BareC {
        let directory = try TemporaryDirectory(prefix: "bare-c")
        for (name, packages) in programs {
            let command = "cc -O2 -Wall -o '\(directory.file(name))' '\(sources)/\(name).c' $(pkg-config --cflags --libs \(packages))"
            let child = try ChildProcess(
                executable: "/bin/sh", arguments: ["-c", command], stdoutPath: directory.file("cc.log"),
                stderrPath: directory.file("cc.log"))
            guard try await child.waitForExit(timeout: .seconds(60)) == 0 else {
                throw BenchError(
                    "cannot build \(name).c (needs cc, pkg-config, libdbus-1-dev, libssl-dev and libmosquitto-dev):\n\(child.stdout)")
            }
        }
        return BareC(
            directory: directory, sender: directory.file("bluez_sender"), receiver: directory.file("bare_receiver"),
            responder: directory.file("bare_responder"))
    }

    /// Starts one of the programs and waits for its `ready` line.
    func start(_ executable: String, _ arguments: [String], log: String) async throws -> ChildProcess {
        let child = try ChildProcess(
            executable: executable, arguments: arguments, stdoutPath: directory.file(log + ".out"),
            stderrPath: directory.file(log + ".err"))
        try await waitUntil("\(log) ready", timeout: .seconds(30), every: .milliseconds(5)) {
            guard child.isRunning else { throw BenchError("\(log) exited: \(child.stderr)") }
            return child.stdout.hasPrefix("ready\n")
        }
        return child
    }

    /// The numbers of the line that starts with `word` (`sent …`, `received …`), once the program printed it.
    static func line(_ word: String, of child: ChildProcess, timeout: Duration = .seconds(120)) async throws -> [Int64] {
        try await waitForValue("\(word) line", timeout: timeout, every: .milliseconds(2)) {
            guard let line = child.stdout.split(separator: "\n").first(where: { $0.hasPrefix(word + " ") }) else {
                if !child.isRunning, !child.stdout.contains(word + " ") { throw BenchError("\(word): \(child.stderr)") }
                return nil
            }
            return line.split(separator: " ").dropFirst().compactMap { Int64($0) }
        }
    }
}
