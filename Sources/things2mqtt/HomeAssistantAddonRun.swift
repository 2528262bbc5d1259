import ArgumentParser
import FoundationEssentials
import HomeAssistantAddon
import Logging
import BridgeCore
import Things2MQTTApp

/// `things2mqtt ha-addon`: the Home Assistant add-on's entry point. It writes the bridge's config from the
/// add-on's options (the broker from the Supervisor when the options name none), then runs the bridge on it.
struct HomeAssistantAddonRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ha-addon",
        abstract: "Run as a Home Assistant add-on: write the config from the add-on's options, then run the bridge.")

    @Option(help: "The options the Supervisor writes.")
    var options = "/data/options.json"

    @Option(help: "The add-on's own folder: the written config, its secrets and the aliases go here.")
    var data = "/data"

    @Option(help: "The Supervisor's API.")
    var supervisor = "http://supervisor"

    @Option(help: "The frontend's port, which the add-on's ingress_port names.")
    var ingressPort = AddonConfig.ingressPort

    func run() async throws {
        let logging = DaemonLogging.bootstrap(.info)
        let logger = Logger(label: "addon")
        let start = AddonStart(
            optionsPath: options, dataFolder: data, supervisorURL: supervisor,
            supervisorToken: ProcessInfo.processInfo.environment["SUPERVISOR_TOKEN"], port: ingressPort)
        let path: String
        do {
            path = try await start.prepare(logger: logger)
        } catch {
            logger.critical("The add-on cannot start: \(error.description)")
            throw ExitCode(1)
        }
        let loaded = try Run.load(path)
        logging.control.current = loaded.logLevel
        let run = try Run.parse(["--config", path, "--alias-file", data + "/things2mqtt-aliases.json"])
        try await run.serve(loaded, logging: logging)
    }
}
