import Foundation
import Synchronization

/// A real `mosquitto` broker on 127.0.0.1 and a free port, started by the test and stopped on deinit.
public final class Broker: Sendable {
    /// The plain, anonymous listening port; `restart()` keeps it.
    public let port: Int
    /// The ports of the extra listeners, by listener name; `restart()` keeps them.
    public let listenerPorts: [String: Int]
    /// Always `127.0.0.1`.
    public let host = "127.0.0.1"
    /// Where the config, logs and any persistence live.
    public let directory: TemporaryDirectory
    private let executable: String
    private let child: Mutex<ChildProcess?>

    /// Starts a broker; with `persistence` off, retained messages die with the broker process.
    /// `listeners` are opened beside the plain anonymous one at `port`, each on a free port of its own.
    /// `tcpNoDelay` is mosquitto's `set_tcp_nodelay`: off (its default), the broker holds a reply it sends
    /// right after an acknowledgement until the client's delayed ACK, about 40 ms. `logSubscriptions` logs every
    /// SUBSCRIBE (`<client> <qos> <filter>`), so a test can tell when an outside client listens; `logPublishes`
    /// logs every packet (`Received PUBLISH from <client> (…, '<topic>', …)`), so a test can tell who sent what.
    public static func start(
        persistence: Bool = false, listeners: [Listener] = [], tcpNoDelay: Bool = true, logSubscriptions: Bool = false,
        logPublishes: Bool = false
    ) async throws -> Broker {
        let executable = try locateMosquitto()
        let directory = try TemporaryDirectory(prefix: "broker")
        var lastLog = ""
        for _ in 0..<5 {
            let port = try LocalPorts.free()
            var listenerPorts: [String: Int] = [:]
            for listener in listeners { listenerPorts[listener.name] = try LocalPorts.free() }
            try writeConfig(
                directory: directory, port: port, persistence: persistence, tcpNoDelay: tcpNoDelay,
                logSubscriptions: logSubscriptions || logPublishes, logPublishes: logPublishes, listeners: listeners.map { ($0, listenerPorts[$0.name] ?? 0) })
            let child = try launch(executable, directory)
            if try await waitUntilListening(child, ports: [port] + listenerPorts.values) {
                return Broker(
                    port: port, listenerPorts: listenerPorts, directory: directory, executable: executable, child: child)
            }
            lastLog = child.stdout
            child.signal(SIGKILL)
        }
        throw TestFailure("mosquitto did not start; last log:\n\(lastLog)")
    }

    private init(
        port: Int, listenerPorts: [String: Int], directory: TemporaryDirectory, executable: String, child: ChildProcess
    ) {
        self.port = port
        self.listenerPorts = listenerPorts
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

    /// The port of the extra listener called `name`.
    /// The clients that published to `topic`, from the broker's log (needs `logPublishes`).
    public func publishers(of topic: String) -> Set<String> {
        var clients: Set<String> = []
        for line in log.split(separator: "\n") where line.contains("Received PUBLISH from ") && line.contains("'\(topic)'") {
            guard let from = line.range(of: "Received PUBLISH from ") else { continue }
            clients.insert(String(line[from.upperBound...].prefix { $0 != " " }))
        }
        return clients
    }

    public func port(of name: String) throws -> Int {
        guard let port = listenerPorts[name] else {
            throw TestFailure("the broker has no listener \"\(name)\" (it has \(listenerPorts.keys.sorted()))")
        }
        return port
    }

    /// The broker's log so far. mosquitto buffers its stdout, so this reads the log file it flushes line by line.
    public var log: String {
        if let data = FileManager.default.contents(atPath: directory.file("mosquitto-file.log")), !data.isEmpty {
            return String(decoding: data, as: UTF8.self)
        }
        return child.withLock { $0?.stdout ?? "" }
    }

    /// Stops the broker with SIGTERM and waits for it to exit.
    public func stop() async throws {
        guard let running = child.withLock({ $0 }) else { return }
        running.signal(SIGTERM)
        // A broker with a bridge was once seen still running 15 s after SIGTERM in a loaded test pass; the tests
        // need its port again, not its farewell.
        if (try? await running.waitForExit(timeout: .seconds(10))) == nil { try await kill() }
    }

    /// Stops the broker process (SIGSTOP): connections stay open, nothing is read or acknowledged.
    public func pause() {
        child.withLock { $0 }?.signal(SIGSTOP)
    }

    /// Lets a paused broker run again (SIGCONT).
    public func resume() {
        child.withLock { $0 }?.signal(SIGCONT)
    }

    /// Kills the broker with SIGKILL and waits for it to exit.
    public func kill() async throws {
        guard let running = child.withLock({ $0 }) else { return }
        running.signal(SIGKILL)
        try await running.waitForExit()
    }

    /// Links this broker to another on 127.0.0.1 with a mosquitto bridge connection carrying every topic both
    /// ways (nil: no link), and restarts it with that: what a user does to join two sites, and to cut them.
    public func setBridge(to remotePort: Int?) async throws {
        let path = directory.file("mosquitto.conf")
        let current = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        var lines = current.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let marker = lines.firstIndex(of: "# link") { lines.removeSubrange(marker...) }
        while lines.last == "" { lines.removeLast() }
        if let remotePort {
            lines += [
                "# link", "connection link", "address 127.0.0.1:\(remotePort)", "topic # both 1", "cleansession true",
                "notifications false", "restart_timeout 1",
            ]
        }
        try directory.write("mosquitto.conf", lines.joined(separator: "\n") + "\n")
        try await restart()
    }

    /// Stops the broker if it runs, then starts it again on the same port.
    public func restart() async throws {
        try await stop()
        var lastLog = ""
        for _ in 0..<20 {
            let next = try Self.launch(executable, directory)
            if try await Self.waitUntilListening(next, ports: [port] + listenerPorts.values) {
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

    private static func writeConfig(
        directory: TemporaryDirectory, port: Int, persistence: Bool, tcpNoDelay: Bool, logSubscriptions: Bool,
        logPublishes: Bool = false,
        listeners: [(Listener, Int)]
    ) throws {
        // With extra listeners, access rules are per listener, so the plain one stays open for checking clients.
        var lines = listeners.isEmpty ? [] : ["per_listener_settings true"]
        lines += [
            "listener \(port) 127.0.0.1", "allow_anonymous true", "log_dest stdout",
            "log_dest file \(directory.file("mosquitto-file.log"))",
            "log_type error", "log_type warning", "log_type notice", "log_type information",
            "set_tcp_nodelay \(tcpNoDelay)",
        ]
        if logSubscriptions { lines.append("log_type subscribe") }
        if logPublishes { lines.append("log_type debug") }
        if persistence {
            lines += ["persistence true", "persistence_location \(directory.path)/"]
        } else {
            lines.append("persistence false")
        }
        // As root mosquitto would switch to the `mosquitto` user, which cannot write the test's folder.
        if getuid() == 0 { lines.append("user root") }
        for (listener, listenerPort) in listeners {
            lines += ["listener \(listenerPort) 127.0.0.1"] + listener.settings
        }
        try directory.write("mosquitto.conf", lines.joined(separator: "\n") + "\n")
    }

    private static func launch(_ executable: String, _ directory: TemporaryDirectory) throws -> ChildProcess {
        try ChildProcess(
            executable: executable, arguments: ["-c", directory.file("mosquitto.conf")],
            stdoutPath: directory.file("mosquitto.log"), stderrPath: directory.file("mosquitto.log"))
    }

    /// True once every port accepts connections; false if the broker exited (port taken) first.
    private static func waitUntilListening(_ child: ChildProcess, ports: [Int]) async throws -> Bool {
        // 30 s: on a loaded two-core machine (a plain `swift test` starts every suite at once) three brokers once
        // took longer than 10 s to listen; a broker that never listens still fails the test.
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            guard child.isRunning else { return false }
            if ports.allSatisfy({ LocalPorts.accepts(port: $0) }) { return child.isRunning }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("mosquitto on ports \(ports) did not accept connections within 30 s:\n\(child.stdout)")
    }
}

extension Broker {
    /// One more listener on 127.0.0.1: TLS, password-protected, or both.
    public struct Listener: Sendable {
        /// How the test finds the listener's port (`Broker.port(of:)`).
        public var name: String
        /// `cafile`: the CA that signed client certificates (and, for clients, the server's).
        public var caFile: String?
        /// `certfile` and `keyfile`: the server's certificate and key; both set means TLS.
        public var certFile: String?
        public var keyFile: String?
        /// `require_certificate true`: clients must present a certificate signed by `caFile`.
        public var requireCertificate: Bool
        /// `allow_anonymous false` with this `password_file`; nil leaves the listener anonymous.
        public var passwordFile: String?

        /// Creates a listener description; with no TLS files and no password file it is plain and anonymous.
        public init(
            name: String, caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil,
            requireCertificate: Bool = false, passwordFile: String? = nil
        ) {
            self.name = name
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
            self.requireCertificate = requireCertificate
            self.passwordFile = passwordFile
        }

        /// A TLS listener with the server's certificate and key.
        public static func tls(
            _ name: String, caFile: String, certFile: String, keyFile: String, requireCertificate: Bool = false,
            passwordFile: String? = nil
        ) -> Listener {
            Listener(
                name: name, caFile: caFile, certFile: certFile, keyFile: keyFile,
                requireCertificate: requireCertificate, passwordFile: passwordFile)
        }

        /// A plain listener that only lets in the users of a password file (see `writePasswordFile`).
        public static func passwords(_ name: String, file: String) -> Listener {
            Listener(name: name, passwordFile: file)
        }

        /// The mosquitto settings that follow this listener's `listener` line.
        var settings: [String] {
            var lines: [String] = []
            if let caFile { lines.append("cafile \(caFile)") }
            if let certFile { lines.append("certfile \(certFile)") }
            if let keyFile { lines.append("keyfile \(keyFile)") }
            if requireCertificate { lines.append("require_certificate true") }
            if let passwordFile {
                lines += ["allow_anonymous false", "password_file \(passwordFile)"]
            } else {
                lines.append("allow_anonymous true")
            }
            return lines
        }
    }

    /// Writes a mosquitto password file for `users` (name → password) with `mosquitto_passwd`.
    /// The file is world-readable: mosquitto started as root may drop to another user before reading it.
    public static func writePasswordFile(_ users: [String: String], to path: String) async throws {
        let tool = try TestTools.locate("mosquitto_passwd", package: "mosquitto")
        let logs = try TemporaryDirectory(prefix: "passwd")
        defer { logs.remove() }
        var create = true
        for (user, password) in users.sorted(by: { $0.key < $1.key }) {
            try await TestTools.run(tool, (create ? ["-b", "-c"] : ["-b"]) + [path, user, password], logs: logs)
            create = false
        }
        chmod(path, 0o644)
    }
}
