public import Bridge
public import BridgeConfig
public import BridgeCore
public import LIFXModels
import Logging
import Synchronization
public import Things2MQTTApp

/// `BridgeService` over a `MemoryTransport`, with scripted drivers: bridge logic without a broker.
public final class MemoryBridge: Sendable {
    /// The parsed config the bridge runs with.
    public let config: Configuration
    /// The bridge's topic layout.
    public let topics: Topics
    /// The broker stand-in.
    public let transport: MemoryTransport
    /// The bridge's input queue, for tests that fill it before the bridge runs.
    public let inbox: BridgeInbox
    /// One scripted driver per integration asked for.
    public let drivers: [Integration: ScriptedDriver]
    /// The drivers with connections, for the integrations asked for with `connecting`.
    public let connecting: [Integration: ConnectingDriver]
    /// Everything the bridge logged.
    public let logs: LogCapture
    private let service: BridgeService
    private let task = TaskBox()

    /// Builds a bridge without running it; `retained` is on the "broker" before it starts.
    public init(
        yaml: String? = nil, integrations: [Integration] = [.lifx], connecting: [Integration] = [],
        options: BridgeOptions = .fastForTests(), limits: InboxLimits = InboxLimits(), retained: [String: [UInt8]] = [:],
        families: [FamilySection] = Families.sections
    ) throws {
        let text = yaml ?? TestConfig.yaml(port: 1883)
        do throws(ConfigErrors) {
            config = try ConfigLoader.parse(yaml: text, file: "test.yaml", families: families)
        } catch {
            throw TestFailure("test config is invalid:\n\(error.description)")
        }
        topics = Topics(base: config.mqtt.baseTopic)
        transport = MemoryTransport(retained: retained)
        inbox = BridgeInbox(limits: limits)
        transport.attach(inbox.transportHandler)
        logs = LogCapture()
        var drivers: [Integration: ScriptedDriver] = [:]
        var all: [any DeviceDriver] = []
        for integration in integrations {
            drivers[integration] = ScriptedDriver(integration: integration, sink: inbox.deviceSink)
            all.append(drivers[integration]!)
        }
        var connectingDrivers: [Integration: ConnectingDriver] = [:]
        for integration in connecting {
            let driver = ConnectingDriver(integration: integration, sink: inbox.deviceSink)
            connectingDrivers[integration] = driver
            drivers[integration] = driver.scripted
            all.append(driver)
        }
        self.drivers = drivers
        self.connecting = connectingDrivers
        service = BridgeService(
            config: config, transport: transport, drivers: all, inbox: inbox,
            logLevel: LogLevelControl(.debug), options: options, logger: logs.logger("bridge"))
    }

    /// Builds and runs a bridge, returning once it has published `bridge/devices`.
    public static func start(
        yaml: String? = nil, integrations: [Integration] = [.lifx], connecting: [Integration] = [],
        options: BridgeOptions = .fastForTests(), limits: InboxLimits = InboxLimits(), retained: [String: [UInt8]] = [:],
        families: [FamilySection] = Families.sections
    ) async throws -> MemoryBridge {
        let bridge = try MemoryBridge(
            yaml: yaml, integrations: integrations, connecting: connecting, options: options, limits: limits,
            retained: retained, families: families)
        try await bridge.run()
        return bridge
    }

    /// Starts handling inputs and waits until the bridge announced itself.
    public func run() async throws {
        let service = self.service
        let logs = self.logs
        task.set(
            Task {
                do { try await service.run() } catch { logs.logger("test").error("bridge run() threw: \(error)") }
            })
        try await waitUntil("bridge/devices from the in-memory bridge") { transport.retained(topics.bridgeDevices) != nil }
    }

    /// The driver for an integration.
    public func driver(_ integration: Integration = .lifx) -> ScriptedDriver {
        guard let driver = drivers[integration] else { preconditionFailure("no scripted \(integration) driver") }
        return driver
    }

    /// Publishes as another client would.
    public func send(_ topic: String, _ text: String) { transport.inject(topic, Array(text.utf8)) }

    /// Waits for a publish on `topic` after `mark` that satisfies `condition`.
    public func waitForPublish(
        _ topic: String, after mark: Int = 0, timeout: Duration = .seconds(30),
        where condition: @escaping @Sendable (MemoryTransport.Published) -> Bool = { _ in true }
    ) async throws -> MemoryTransport.Published {
        try await waitForValue("a publish on \(topic)", timeout: timeout, every: .milliseconds(2)) {
            transport.published.dropFirst(mark).first { $0.topic == topic && condition($0) }
        }
    }

    /// Sends a request and waits for its response.
    public func request(_ name: String, _ payload: JSONValue = [:]) async throws -> JSONValue {
        let mark = transport.mark
        send(topics.requestPrefix + name, payload.jsonString)
        let response = try await waitForPublish(topics.response(name), after: mark)
        return try response.json.orThrow("response to \(name) is not JSON: \(response.text)")
    }

    /// Stops the bridge.
    public func stop() async { await task.cancelAndWait() }
}

extension Optional {
    /// The value, or a test failure with `message`.
    func orThrow(_ message: @autoclosure () -> String) throws -> Wrapped {
        guard let self else { throw TestFailure(message()) }
        return self
    }
}

/// Holds a task that is started after init, so the owner can stay `Sendable`.
final class TaskBox: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func set(_ newTask: Task<Void, Never>) { task.withLock { $0 = newTask } }

    func cancelAndWait() async {
        guard let running = task.withLock({ $0 }) else { return }
        running.cancel()
        await running.value
    }

    deinit { task.withLock { $0?.cancel() } }
}
