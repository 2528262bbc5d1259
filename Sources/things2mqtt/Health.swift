import ArgumentParser
import FoundationEssentials
import Things2MQTTApp

/// `things2mqtt health`: exits 0 only while the running daemon is connected to its broker (a container's
/// HEALTHCHECK). It reads the status file the daemon keeps, so it needs neither the config nor the broker.
struct Health: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Exit 0 if the running bridge is connected to its MQTT broker, 1 if not.")

    @Option(help: "The daemon's --status-file (default: $THINGS2MQTT_STATUS_FILE).")
    var statusFile: String?

    @Option(help: "Seconds after which a status file that was not rewritten counts as a hung bridge.")
    var maxAge = 30

    func validate() throws {
        guard StatusFile(path: statusFile) != nil else {
            throw ValidationError("Pass --status-file or set THINGS2MQTT_STATUS_FILE, as for `things2mqtt run`.")
        }
        guard maxAge > 0 else { throw ValidationError("--max-age must be positive.") }
    }

    func run() throws {
        guard let file = StatusFile(path: statusFile) else { throw ExitCode(2) }
        switch file.verdict(maxAge: .seconds(maxAge)) {
        case .healthy:
            print("healthy: connected to the MQTT broker")
        case .unhealthy(let reason):
            print("unhealthy: \(reason)")
            throw ExitCode(1)
        }
    }
}
