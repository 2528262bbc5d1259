public import ArgumentParser
import BridgeConfig
import BridgeCore
import Things2MQTTApp
import FoundationEssentials
import Support
public import Logging

/// The things2mqtt command line.
@main
struct Things2MQTT: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "things2mqtt",
        abstract: "Bridges BLE devices, LEGO EV3 bricks and LIFX cloud lights to MQTT and Home Assistant.",
        version: version,
        subcommands: [Run.self, CheckConfig.self, Health.self, HomeAssistantAddonRun.self],
        defaultSubcommand: Run.self
    )

    /// Parses the command line and runs the command; for the daemon, the shutdown signals are held from the
    /// very start, so one sent during start-up still ends in a clean stop.
    static func main() async {
        // Before the command line is parsed, which takes milliseconds: a container's PID 1 loses every signal
        // that comes before it has a handler. Other commands get the default actions back at once.
        StartupSignals.hold()
        do {
            var command = try parseAsRoot()
            if !(command is Run || command is HomeAssistantAddonRun) { StartupSignals.release() }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {
    /// Parses `--log-level` values.
    public init?(argument: String) { self.init(configName: argument) }
}

/// `things2mqtt run`: the daemon.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the bridge.")

    @Option(name: .shortAndLong, help: "The YAML config file.")
    var config = "/etc/things2mqtt/config.yaml"

    @Option(help: "Overrides log_level from the config (trace, debug, info, notice, warning, error).")
    var logLevel: Logger.Level?

    @Option(help: "Where aliases set through device/rename are kept (default: beside the config file).")
    var aliasFile: String?

    @Option(help: "Keep the broker connection's state in this file for `things2mqtt health` (default: $THINGS2MQTT_STATUS_FILE).")
    var statusFile: String?

    func run() async throws {
        let loaded = try Self.load(config)
        try await serve(loaded, logging: DaemonLogging.bootstrap(logLevel ?? loaded.logLevel))
    }

    /// The config file, or exit status 1 with every problem on stderr.
    static func load(_ path: String) throws -> Configuration {
        do throws(ConfigErrors) {
            return try ConfigLoader.load(file: path, families: Families.sections)
        } catch {
            StandardError.write("Invalid config:\n\(error.description)\n")
            throw ExitCode(1)
        }
    }

    /// Runs the bridge on a loaded config until it stops, with the logging bootstrapped before.
    func serve(_ loaded: Configuration, logging: DaemonLogging) async throws {
        let folder = PathText.folder(of: config)
        let aliasPath = aliasFile ?? ((folder.isEmpty ? "." : folder) + "/things2mqtt-aliases.json")
        do {
            try await BridgeRunner(
                config: loaded, configPath: config, control: logging.control, aliasPath: aliasPath, version: Things2MQTT.version,
                statusFile: StatusFile(path: statusFile), logRing: logging.ring
            ).run()
        } catch let stop as ClusterStop {
            StandardError.write("things2mqtt: \(stop.description)\n")
            throw ExitCode(1)
        }
    }
}

/// The daemon's logging: stderr (the journal) at the shared level, and the ring `bridge/logging` and the web
/// page's Logs read, which gets the same lines; the drivers' metrics go to `/metrics`. Once per process.
struct DaemonLogging {
    let control: LogLevelControl
    let ring: LogRing

    static func bootstrap(_ level: Logger.Level) -> DaemonLogging {
        let logging = DaemonLogging(control: LogLevelControl(level), ring: LogRing())
        LoggingSystem.bootstrap { label in StderrLogHandler(label: label, control: logging.control, ring: logging.ring) }
        BridgeRunner.bootstrapMetrics()
        return logging
    }
}

/// `things2mqtt check-config`: validate a config file.
struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check-config", abstract: "Check a config file and print every problem.")

    @Option(name: .shortAndLong, help: "The YAML config file.")
    var config = "/etc/things2mqtt/config.yaml"

    func run() throws {
        do throws(ConfigErrors) {
            _ = try ConfigLoader.load(file: config, families: Families.sections)
            print("OK: \(config)")
        } catch {
            print(error.description)
            throw ExitCode(1)
        }
    }
}
