import Bridge
public import BridgeConfig
public import BridgeCore
import FoundationEssentials
import Frontend
import Logging
import Mosquitto
import ServiceLifecycle

/// Composes the daemon: MQTT first, then drivers, then the bridge, so shutdown stops them in reverse.
public struct BridgeRunner {
    let config: Configuration
    let configPath: String
    let control: LogLevelControl
    let aliasPath: String
    let version: String
    let statusFile: StatusFile?
    let logRing: LogRing?

    /// Creates a runner for a loaded config; `control` is the log level the process's log handler reads, and
    /// `statusFile` (if any) is kept with the broker connection's state for `things2mqtt health`; `logRing` holds
    /// the recent log lines the bridge publishes on `bridge/logging` and the web page shows.
    public init(
        config: Configuration, configPath: String, control: LogLevelControl, aliasPath: String, version: String,
        statusFile: StatusFile? = nil, logRing: LogRing? = nil
    ) {
        self.config = config
        self.configPath = configPath
        self.control = control
        self.aliasPath = aliasPath
        self.version = version
        self.statusFile = statusFile
        self.logRing = logRing
    }

    /// Points the drivers' swift-metrics counters at the web frontend's `/metrics`; once per process, at start.
    public static func bootstrapMetrics() { ProcessMetrics.bootstrap() }

    /// Runs until SIGTERM or SIGINT.
    public func run() async throws {
        let logger = Logger(label: "things2mqtt")
        try await ClusterPreflight.check(config, logger: Logger(label: "cluster"))
        let inbox = BridgeInbox()
        let client = try MosquittoClient(
            options: MosquittoOptions(config), logger: Logger(label: "mqtt"), deliver: inbox.transportHandler)
        let memory = DeviceMemoryStore(path: aliasPath, logger: logger)
        let drivers = Families.drivers(for: config, sink: inbox.deviceSink) { integration in
            DriverMemory(load: { memory.driverMemory[integration.rawValue] }, save: { memory.save(driver: integration.rawValue, $0) })
        }
        var options = BridgeOptions(
            version: version, saveAliases: { memory.save(aliases: $0) }, savedAliases: memory.aliases,
            saveRemembered: { memory.save(remembered: $0) }, savedRemembered: memory.remembered)
        let tap = config.frontend.enabled ? PublishTap(base: config.mqtt.baseTopic, bridgeID: config.cluster?.bridgeID) : nil
        options.publishTap = tap
        options.logRing = logRing
        let bridge = BridgeService(
            config: config, transport: client, drivers: drivers, inbox: inbox, logLevel: control, options: options,
            logger: Logger(label: "bridge"))
        let isConnected: @Sendable () -> Bool = { client.isConnected }
        let bridgeResponds: @Sendable () async -> Void = { await bridge.ping() }
        var services: [any Service] =
            [StartupSignalsService(), MQTTService(client: client)] + drivers.map { DriverService(driver: $0) as any Service }
            + [bridge, ReloadService(configPath: configPath, inbox: inbox, logger: logger), MemoryTrimmer()]
        if let tap {
            // After the bridge, so at shutdown the pages are closed before the bridge stops.
            let link = FrontendLink(
                tap: tap, inbox: inbox, base: config.mqtt.baseTopic, isConnected: isConnected, logs: logRing,
                bridgeID: config.cluster?.bridgeID)
            services.append(FrontendService(settings: config.frontend, link: link, logger: Logger(label: "frontend")))
        }
        if let statusFile {
            services.append(
                StatusFileService(file: statusFile, isConnected: isConnected, bridgeResponds: bridgeResponds, logger: logger))
        }
        services.append(
            SystemdNotifier(
                environment: ProcessInfo.processInfo.environment, broker: "\(config.mqtt.host):\(config.mqtt.port)",
                isConnected: isConnected, bridgeResponds: bridgeResponds))
        logger.info(
            "Starting things2mqtt",
            metadata: ["version": "\(version)", "broker": "\(config.mqtt.server)", "base_topic": "\(config.mqtt.baseTopic)"])
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        logger.info("Stopped")
    }
}

/// Runs a driver as a service; graceful shutdown cancels its run, then it finishes in this service's own task.
struct DriverService: Service, CustomStringConvertible {
    let driver: any DeviceDriver

    /// Names the integration only; the driver holds credentials that must not reach the logs.
    var description: String { "DriverService(\(driver.integration.rawValue))" }

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { try await driver.run() }
        } catch is CancellationError {}
        await driver.finish()
    }
}
