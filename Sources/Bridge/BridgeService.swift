public import BridgeConfig
public import BridgeCore
import Cluster
import Support
import FoundationEssentials
public import Logging
public import ServiceLifecycle

/// The bridge: owns device state and the topic contract, and is the one path between drivers and MQTT.
/// Every input arrives through the inbox and is handled in order on this actor.
public actor BridgeService: Service {
    var config: Configuration { didSet { configInfo = config.redactedJSON } }
    /// The config as `bridge/info` shows it, made again only when the config changes: `bridge/info` goes out
    /// with every inventory update, and each section is encoded to find its secrets.
    private(set) var configInfo: JSONValue
    let transport: any MQTTTransport
    let drivers: [Integration: any DeviceDriver]
    /// The registered families in the config's order, then any driver's integration the config does not list.
    let knownIntegrations: [Integration]
    let inbox: BridgeInbox
    /// Requests that wait for a driver, and timers, as children of `run()`.
    let tasks = ServiceTasks()
    let logLevel: LogLevelControl
    let options: BridgeOptions
    let logger: Logger
    let topics: Topics
    let startedAt = ContinuousClock.now

    var devices: [DeviceID: DeviceRecord] = [:]
    var aliasIndex: [String: DeviceID] = [:]
    /// Commands are subscribed for aliases of up to this many topic levels.
    var commandLevels = 0
    var savedAliases: [DeviceID: String]
    /// Devices the user asked to remember (`device/remember`, `device/connect` with `remember`).
    var remembered: Set<DeviceID>
    /// Changes of the remembered set, handed to the drivers one after another in the order they were made.
    let rememberedUpdates = ServiceTasks(limit: 4096, serial: true)
    var integrationStatus: [Integration: IntegrationStatus] = [:]
    var restartRequired: [String] = []
    var inventoryScheduled = false
    var discovery: DiscoveryState
    var summarizer: RepeatSummarizer
    var summaryFlushScheduled = false
    /// Broker messages refused at the inbox since start, reported by `health_check`.
    var refusedMessages = 0
    /// Several bridges of one home (the `cluster` section); nil when this bridge works alone.
    var cluster: ClusterState?
    /// Signs and checks the cluster's messages (`cluster.secret`); nil without a secret.
    let clusterAuth: ClusterAuth?
    /// Cluster messages refused since start (unauthenticated or outside the window), and which bounds were said.
    var clusterRejected = 0
    var clusterBoundsSaid: Set<String> = []
    /// Free connection slots by integration, for those whose radios set a limit.
    var connectionSlots: [Integration: Int] = [:]
    /// Each integration's radios, for the cluster's presence.
    var adapters: [Integration: [String]] = [:]
    /// Set when the bridge must stop with an error (another live bridge has its id).
    var stop: ClusterStop?
    /// State carried by a claim this bridge gained, not yet applied: at most one per device.
    var carrying: [DeviceID: [String: JSONValue]] = [:]
    /// Device states waiting for the broker to catch up.
    var held = HeldStates()

    /// Creates the bridge; it starts publishing when `run()` is called.
    public init(
        config: Configuration, transport: any MQTTTransport, drivers: [any DeviceDriver], inbox: BridgeInbox,
        logLevel: LogLevelControl, options: BridgeOptions, logger: Logger
    ) {
        self.config = config
        self.configInfo = config.redactedJSON
        self.transport = transport
        self.drivers = Dictionary(drivers.map { ($0.integration, $0) }, uniquingKeysWith: { first, _ in first })
        self.knownIntegrations =
            config.integrations + Set(drivers.map(\.integration)).filter { !config.integrations.contains($0) }.sorted()
        self.inbox = inbox
        self.logLevel = logLevel
        self.options = options
        self.logger = logger
        self.topics = Topics(base: config.mqtt.baseTopic, bridgeID: config.cluster?.bridgeID)
        self.cluster = Self.makeCluster(config)
        self.clusterAuth = Self.makeClusterAuth(config)
        let (usable, refused) = Self.usableAliases(options.savedAliases, config)
        self.savedAliases = usable
        self.remembered = options.savedRemembered
        self.discovery = DiscoveryState()
        self.summarizer = RepeatSummarizer(window: options.repeatWindow)
        inbox.install(InboxFilter(config: config))
        if !refused.isEmpty {
            // Saved by an older release, or by hand: such an alias could take the bridge off the broker on every
            // start, so the device goes back to its default alias and the file is written without it.
            for (id, problem) in refused {
                logger.warning("Ignoring a saved alias that is not usable", metadata: ["device.id": "\(id)", "problem": "\(problem)"])
            }
            options.saveAliases?(usable)
        }
        for integration in knownIntegrations {
            integrationStatus[integration] = IntegrationStatus(drivers.contains { $0.integration == integration } ? .starting : .disabled)
        }
    }

    /// Publishes the bridge's retained topics, then handles inputs until graceful shutdown.
    public func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.tasks.run() }
            group.addTask { await self.rememberedUpdates.run() }
            if let ring = options.logRing { group.addTask { await self.publishLogging(from: ring) } }
            start()
            // Not `cancelOnGracefulShutdown()`: that merges the inputs with the shutdown signal, which hands every
            // input from one task to another on its way, an extra wake-up for each command.
            let inbox = self.inbox
            await withGracefulShutdownHandler {
                for await input in inbox.inputs {
                    await handle(input)
                    if stop != nil { break }
                }
            } onGracefulShutdown: {
                inbox.close()
            }
            group.cancelAll()
        }
        if let stop { throw stop }
        await clusterLeaving()
        logger.info("Bridge stopped")
    }

    /// Returns once the bridge's queue has turned to this call: proof of life for a watchdog.
    public func ping() {}

    private func start() {
        publishJSON(topics.bridgeState, ["state": "online"], retain: true, qos: 1)
        transport.subscribe(topics.requestFilter, qos: config.mqtt.qos)
        listenForCommands(levels: 1)
        for alias in config.devices.values.compactMap(\.alias) + savedAliases.values { listenForCommands(to: alias) }
        if config.homeassistant.enabled {
            transport.subscribe(config.homeassistant.statusTopic, qos: 1)
            // At QoS 0: every bridge's configs come back at once, and on a shared broker they may outnumber the
            // broker's queue for this client; as QoS 1 they would fill it and push out the commands (and a
            // cluster's probe) that follow, while QoS 0 ones past it are dropped alone.
            transport.subscribe(config.homeassistant.discoveryPrefix + "/+/+/+/config", qos: 0)
            schedule(.discoveryWindowClosed, after: options.discoveryWindow)
            let running = knownIntegrations.filter { drivers[$0] != nil }
            for message in builder.bridgeConfigs(integrations: running) { publishDiscovery(message) }
        }
        startCluster()
        publishInfo()
        publishDevices()
        announceRemembered()
        logger.info("Bridge started", metadata: ["base_topic": "\(topics.base)"])
    }

    func handle(_ input: BridgeInput) async {
        switch input {
        case .transport(.message(let message)): await handleMessage(message)
        case .transport(.connected):
            logger.debug("Transport connected")
            clusterConnected()
        case .transport(.disconnected(let reason)): logger.warning("MQTT connection lost", metadata: ["reason": "\(reason)"])
        case .transport(.caughtUp): flushHeldStates()
        case .device(let event): handleDeviceEvent(event)
        case .reload(let newConfig): applyReload(newConfig)
        case .reloadFailed(let errors):
            logger.error("Config reload failed; keeping the running config", metadata: ["errors": "\(errors)"])
            publishEvent("config_reload_failed", ["errors": .string(errors)])
        case .timer(let timer): await handleTimer(timer)
        case .refused(let refusals): reportRefusals(refusals)
        }
    }

    private func handleTimer(_ timer: BridgeTimer) async {
        switch timer {
        case .flushInventory:
            inventoryScheduled = false
            publishDevices()
            publishInfo()
        case .discoveryWindowClosed:
            transport.unsubscribe(config.homeassistant.discoveryPrefix + "/+/+/+/config")
            discovery.windowOpen = false
            cleanStaleDiscovery()
        case .republishAfterBirth:
            republishAfterBirth()
        case .rediscover(let id):
            if let record = devices[id] { publishDiscovery(for: record) }
        case .flushSummaries:
            flushSummaries()
        case .clusterTick:
            clusterTick()
        case .clusterReleased(let id):
            clusterReleased(id)
        case .carried(let id):
            await applyCarried(id)
        case .flushHeldStates:
            flushHeldStates()
        }
    }

    private func handleMessage(_ message: InboundMessage) async {
        if clusterMessage(message) { return }
        if config.homeassistant.enabled {
            if message.topic == config.homeassistant.statusTopic {
                handleHomeAssistantStatus(message.payload)
                return
            }
            if message.topic.hasPrefix(config.homeassistant.discoveryPrefix + "/") {
                collectDiscovery(message)
                return
            }
        }
        // Retained commands would replay at every start; only live messages are commands.
        guard !message.retained else { return }
        if let size = message.droppedPayloadSize {
            let error = CommandError("payload of \(size) bytes is larger than the limit of \(inbox.limits.payloadBytes) bytes")
            if let name = topics.requestName(message.topic) {
                respond(name, transaction: nil, .failure(error))
            } else if let target = CommandTopic.parse(message.topic, base: topics.base) {
                refuseCommand(target, error)
            }
            return
        }
        if let name = topics.requestName(message.topic) {
            await handleRequest(name, payload: message.payload)
        } else if cluster != nil, let name = Topics(base: topics.base).requestName(message.topic) {
            if answersShared(message.payload) { await handleRequest(name, payload: message.payload, shared: true) }
        } else if let target = CommandTopic.parse(message.topic, base: topics.base) {
            await handleCommand(target, payload: message.payload)
        }
    }

    /// Runs `timer` after a delay by enqueueing it, so it is handled in order with everything else.
    func schedule(_ timer: BridgeTimer, after delay: Duration) {
        let inbox = self.inbox
        tasks.start {
            guard (try? await Task.sleep(for: delay)) != nil else { return }
            inbox.send(.timer(timer))
        }
    }

    var builder: DiscoveryBuilder {
        DiscoveryBuilder(
            topics: topics, settings: config.homeassistant, integrations: Set(knownIntegrations), version: options.version,
            frontend: config.frontend)
    }
}
