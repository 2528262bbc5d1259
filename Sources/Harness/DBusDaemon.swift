import Foundation

/// A private `dbus-daemon` with a session-like configuration, listening on a Unix socket in a temporary
/// directory; started by the test and killed on deinit.
public final class DBusDaemon: Sendable {
    /// The bus address the daemon printed, e.g. `unix:path=/tmp/dbus-1a2b3c4d/bus,guid=…`.
    public let address: String
    /// Where the configuration, the socket and the log live.
    public let directory: TemporaryDirectory
    private let child: ChildProcess

    /// Starts a daemon and waits for its address; a missing `dbus-daemon` fails the test.
    public static func start() async throws -> DBusDaemon {
        let executable = try TestTools.locate("dbus-daemon", package: "dbus-daemon")
        let directory = try TemporaryDirectory(prefix: "dbus")
        let config = try directory.write("bus.conf", configuration(socket: directory.file("bus")))
        let child = try ChildProcess(
            executable: executable, arguments: ["--config-file=\(config)", "--nofork", "--print-address=1"],
            stdoutPath: directory.file("address"), stderrPath: directory.file("daemon.log"))
        let address = try await waitForValue("dbus-daemon to print its address", timeout: .seconds(10)) { () -> String? in
            guard child.isRunning else {
                throw TestFailure("dbus-daemon exited with status \(child.status ?? -1):\n\(child.stderr)")
            }
            let line = child.stdout.split(separator: "\n").first.map(String.init) ?? ""
            return line.hasPrefix("unix:") ? line : nil
        }
        return DBusDaemon(address: address, directory: directory, child: child)
    }

    private init(address: String, directory: TemporaryDirectory, child: ChildProcess) {
        self.address = address
        self.directory = directory
        self.child = child
    }

    deinit {
        child.signal(SIGKILL)
        directory.remove()
    }

    /// Whether the daemon process is running.
    public var isRunning: Bool { child.isRunning }

    /// The daemon's own messages so far.
    public var log: String { child.stderr }

    /// Stops the daemon with SIGTERM and waits for it to exit; its clients see the connection drop.
    public func stop() async throws {
        child.signal(SIGTERM)
        try await child.waitForExit()
    }

    /// The session bus policy (anyone may own any name and send anything) on one private socket, with none of
    /// the system's service directories or include files.
    static func configuration(socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>

        """
    }
}
