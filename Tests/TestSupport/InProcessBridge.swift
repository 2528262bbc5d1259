public import Bridge
public import BridgeConfig
public import BridgeCore
public import LIFXModels
import Logging
import Mosquitto
import Things2MQTTApp

extension BridgeOptions {
    /// Short windows and delays so tests finish quickly.
    public static func fastForTests(savedAliases: [DeviceID: String] = [:]) -> BridgeOptions {
        BridgeOptions(
            version: "0.0.0-test", discoveryWindow: .milliseconds(500), birthDelay: 0.1...0.2,
            rediscoverDelay: .milliseconds(200), inventoryDebounce: .milliseconds(20), repeatWindow: .milliseconds(500),
            savedAliases: savedAliases)
    }
}

/// `BridgeService` running in the test process over a real `MosquittoClient`, with scripted drivers.
public final class InProcessBridge: Sendable {
    /// The parsed config the bridge runs with.
    public let config: Configuration
    /// The bridge's topic layout.
    public let topics: Topics
    /// One scripted driver per integration asked for.
    public let drivers: [Integration: ScriptedDriver]
    /// Everything the bridge and its MQTT client logged.
    public let logs: LogCapture
    /// The broker the bridge talks to, kept alive as long as the bridge.
    public let broker: Broker
    private let client: MosquittoClient
    private let inbox: BridgeInbox
    private let clientTask: Task<Void, Never>
    private let bridgeTask: Task<Void, Never>

    /// Starts the bridge against `broker` with `yaml` (see `TestConfig.yaml`) and waits until it is online.
    public static func start(
        broker: Broker, yaml: String? = nil, integrations: [Integration] = [.lifx],
        options: BridgeOptions = .fastForTests()
    ) async throws -> InProcessBridge {
        let text = yaml ?? TestConfig.yaml(port: broker.port)
        let config: Configuration
        do throws(ConfigErrors) {
            config = try ConfigLoader.parse(yaml: text, file: "test.yaml", families: Families.sections)
        } catch {
            throw TestFailure("test config is invalid:\n\(error.description)")
        }
        let bridge = try InProcessBridge(broker: broker, config: config, integrations: integrations, options: options)
        try await broker.waitForRetained(bridge.topics.bridgeDevices)
        return bridge
    }

    private init(broker: Broker, config: Configuration, integrations: [Integration], options: BridgeOptions) throws {
        self.broker = broker
        self.config = config
        topics = Topics(base: config.mqtt.baseTopic)
        let logs = LogCapture()
        self.logs = logs
        let inbox = BridgeInbox()
        self.inbox = inbox
        let client = try MosquittoClient(
            options: MosquittoOptions(config), logger: logs.logger("mqtt"), deliver: inbox.transportHandler)
        self.client = client
        var drivers: [Integration: ScriptedDriver] = [:]
        for integration in integrations {
            drivers[integration] = ScriptedDriver(integration: integration, sink: inbox.deviceSink)
        }
        self.drivers = drivers
        let service = BridgeService(
            config: config, transport: client, drivers: Array(drivers.values), inbox: inbox,
            logLevel: LogLevelControl(.debug), options: options, logger: logs.logger("bridge"))
        clientTask = Task { await client.run() }
        bridgeTask = Task {
            do {
                try await service.run()
            } catch {
                logs.logger("test").error("bridge run() threw: \(error)")
            }
        }
    }

    deinit {
        bridgeTask.cancel()
        let client = self.client
        Task { await client.shutdown() }
    }

    /// The driver for an integration started with the bridge.
    public func driver(_ integration: Integration = .lifx) -> ScriptedDriver {
        guard let driver = drivers[integration] else { preconditionFailure("no scripted \(integration) driver") }
        return driver
    }

    /// Hands the bridge a new config, as SIGHUP does in the daemon.
    public func reload(yaml: String) throws {
        do throws(ConfigErrors) {
            inbox.send(.reload(try ConfigLoader.parse(yaml: yaml, file: "reload.yaml", families: Families.sections)))
        } catch {
            throw TestFailure("reloaded config is invalid:\n\(error.description)")
        }
    }

    /// Stops the bridge, then publishes `offline` and disconnects as the daemon does on SIGTERM.
    public func stop() async {
        bridgeTask.cancel()
        await bridgeTask.value
        await client.shutdown()
        await clientTask.value
    }
}
