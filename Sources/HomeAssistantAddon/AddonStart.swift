import FoundationEssentials
import Support
public import Logging

/// The add-on's start: reads the options, asks the Supervisor for a broker only when the options name none,
/// writes the config and its secret files, and says in the log which broker it chose and why.
public struct AddonStart: Sendable {
    public var optionsPath: String
    public var dataFolder: String
    public var supervisorURL: String
    /// `SUPERVISOR_TOKEN`, which the Supervisor gives every add-on that uses one of its services.
    public var supervisorToken: String?
    /// The frontend's port, where ingress connects.
    public var port: Int

    /// A start reading `optionsPath` and writing into `dataFolder`.
    public init(optionsPath: String, dataFolder: String, supervisorURL: String, supervisorToken: String?, port: Int = AddonConfig.ingressPort) {
        self.port = port
        self.optionsPath = optionsPath
        self.dataFolder = dataFolder
        self.supervisorURL = supervisorURL
        self.supervisorToken = supervisorToken
    }

    /// Prepares the config and returns its path.
    public func prepare(logger: Logger) async throws(AddonError) -> String {
        let options: AddonOptions
        if let bytes = FileManager.default.contents(atPath: optionsPath) {
            options = try AddonOptions.read([UInt8](bytes), path: optionsPath)
        } else {
            logger.notice("No add-on options file; running with every option empty", metadata: ["path": "\(optionsPath)"])
            options = AddonOptions()
        }
        var broker: SupervisorMQTT?
        if AddonConfig.needsSupervisor(options) {
            guard let token = supervisorToken, !token.isEmpty else {
                throw AddonError("mqtt_server is empty and SUPERVISOR_TOKEN is not set, so no broker can be asked for")
            }
            broker = try await Supervisor.mqtt(base: supervisorURL, token: token)
        }
        switch try AddonConfig.plan(options, supervisor: broker, data: dataFolder, port: port) {
        case .userFile(let path):
            logger.info("Running the config file named by config_file; the add-on's other options are not used", metadata: ["path": "\(path)"])
            return path
        case .generated(let setup):
            for (path, content) in setup.secretFiles.sorted(by: { $0.key < $1.key }) {
                try Self.write(content, to: path, mode: 0o600)
            }
            try Self.write(setup.configText, to: setup.configPath, mode: 0o644)
            logger.info("\(setup.brokerSource)", metadata: ["config": "\(setup.configPath)"])
            return setup.configPath
        }
    }

    /// Writes a file whole, creating its folder; secrets are readable by the add-on only.
    static func write(_ text: String, to path: String, mode: Int) throws(AddonError) {
        let folder = PathText.folder(of: path)
        if !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw AddonError("cannot create \(folder): \(error)")
            }
        }
        // The mode is applied whatever the umask, and to a file left by an earlier start too.
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode]) else {
            throw AddonError("cannot write \(path)")
        }
    }
}
