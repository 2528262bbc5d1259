public import BridgeCore
import FoundationEssentials
import LIFXModels
public import Logging
import Support

/// LIFX cloud lights as devices: polls the account, applies commands optimistically and writes them
/// within the API's rate budget, coalescing bursts and batching several lights into one request.
public actor LIFXDriver: DeviceDriver {
    /// This driver serves `lifx`.
    public nonisolated let integration = Integration.lifx

    let client: LIFXClient
    let sink: DeviceEventSink
    let options: LIFXDriverOptions
    let logger: Logger

    var budget = RateBudget()
    /// Lights as the API last reported them (or as confirmed by a successful write).
    var confirmed: [String: LIFXLight] = [:]
    /// Lights as they will be once pending writes land: what is published.
    var current: [String: LIFXLight] = [:]
    var groups: [String: LIFXGroup] = [:]
    var scenes: [LIFXScene] = []
    var lastScene: String?
    var announced: [DeviceID: DeviceDescriptor] = [:]
    var nativeIDs: [DeviceID: LIFXNativeID] = [:]
    var published: [DeviceID: [String: JSONValue]] = [:]
    var statuses: [DeviceID: DeviceStatus] = [:]
    var pending = PendingWrites()
    var writing: Set<String> = []
    var lastWriteDone: [String: ContinuousClock.Instant] = [:]
    /// Lights with a write waiting, and since when: they show `busy` only once the wait is long.
    var slowWrites: SlowWrites
    let slowWake: AsyncStream<Void>.Continuation
    let slowWakeups: AsyncStream<Void>
    /// Spacing of retries of a write that failed with 5xx or a timeout; reset by any successful write.
    var writeBackoff = Backoff(initial: .milliseconds(500), maximum: .seconds(30))
    var status = IntegrationStatus(.starting)
    let writerWake: AsyncStream<Void>.Continuation
    let writerWakeups: AsyncStream<Void>
    /// Groups whose members changed since their state was last published, and the wake-up of their publisher.
    var staleGroups: Set<String> = []
    let groupWake: AsyncStream<Void>.Continuation
    let groupWakeups: AsyncStream<Void>
    /// The pause between polls, cut short by a `/get`, a refresh request, or after a direct write.
    let pollPause = PollPause()

    /// Creates the driver; nothing is requested until `run()`.
    public init(client: LIFXClient, sink: DeviceEventSink, options: LIFXDriverOptions, logger: Logger) {
        self.client = client
        self.sink = sink
        self.options = options
        self.logger = logger
        (writerWakeups, writerWake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (groupWakeups, groupWake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (slowWakeups, slowWake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        slowWrites = SlowWrites(threshold: options.busyAfter)
    }

    /// Polls and writes until cancelled; `finish()` then sends what is still pending.
    public func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.pollLoop() }
            group.addTask { await self.writeLoop() }
            group.addTask { await self.groupLoop() }
            group.addTask { await self.slowLoop() }
            await group.waitForAll()
        }
    }

    /// Accepted commands still reach the cloud on shutdown, within 3 s.
    public func finish() async {
        await flushBeforeExit(within: .seconds(3))
    }

    /// Applies a command optimistically and queues the API write.
    public func perform(_ command: DeviceCommand, on device: DeviceID) async throws(CommandError) {
        guard status.state != .unauthorized else {
            throw CommandError("the LIFX cloud refuses the token (401); fix lifx.token and restart")
        }
        switch command {
        case .refresh:
            requestRefresh()
        case .set(let set):
            if let scene = set.attributes["scene"]?.stringValue {
                try activateScene(scene)
            }
            if let light = set.light {
                try apply(light, to: device)
            }
        }
    }

    /// Forgets a device removed by the user; it comes back if the account still has it at the next poll.
    public func forget(_ device: DeviceID) async {
        announced[device] = nil
        published[device] = nil
        statuses[device] = nil
    }

    private func apply(_ command: LightCommand, to device: DeviceID) throws(CommandError) {
        guard let target = target(for: device) else { throw CommandError("unknown LIFX device \(device)") }
        let currentPower = target.lightIDs.contains { current[$0]?.power == true }
        let change = LIFXStateChange(command, currentPower: currentPower)
        if !change.isEmpty {
            for id in target.lightIDs { current[id] = current[id].map(change.applied) }
            pending.enqueue(.state(change), for: target.selector)
        }
        if let flash = command.flash {
            let body: JSONValue = ["color": "brightness:1", "period": flash == .short ? 0.3 : 1, "cycles": flash == .short ? 1 : 3, "persist": false, "power_on": true]
            pending.enqueue(.effect(name: "pulse", body: body), for: target.selector)
        }
        if let effect = command.effect {
            let (name, body) = Self.effectRequest(effect)
            for id in target.lightIDs { current[id]?.effect = effect == "stop" ? "OFF" : effect.uppercased() }
            pending.enqueue(.effect(name: name, body: body), for: target.selector)
        }
        publishAffected(target.lightIDs)
        refreshStatus(target.lightIDs)
        writerWake.yield()
    }

    func activateScene(_ key: String) throws(CommandError) {
        guard let scene = scenes.first(where: { $0.uuid == key }) ?? scenes.first(where: { $0.name.lowercased() == key.lowercased() }) else {
            let names = scenes.map(\.name).joined(separator: ", ")
            throw CommandError("no LIFX scene \"\(key)\" (scenes: \(names.isEmpty ? "none" : names))")
        }
        var touched: [String] = []
        for state in scene.states {
            guard let id = LIFXScene.lightID(in: state.selector), var light = current[id] else { continue }
            if let power = state.power { light.power = power == "on" }
            if let brightness = state.brightness { light.brightness = brightness }
            if let hue = state.hue { light.color.hue = hue }
            if let saturation = state.saturation { light.color.saturation = saturation }
            if let kelvin = state.kelvin { light.color.kelvin = kelvin }
            current[id] = light
            touched.append(id)
        }
        lastScene = scene.name
        pending.enqueue(.scene(uuid: scene.uuid), for: "scene_id:\(scene.uuid)")
        publishAffected(touched)
        refreshStatus(touched)
        publishScenes()
        writerWake.yield()
    }

    /// Bodies for the effects Home Assistant lists; `stop` ends any running effect.
    static func effectRequest(_ effect: String) -> (String, JSONValue) {
        switch effect {
        case "breathe": ("breathe", ["color": "brightness:0.2", "period": 2, "cycles": 5, "persist": false, "power_on": true])
        case "pulse": ("pulse", ["color": "white", "period": 1, "cycles": 5, "persist": false, "power_on": true])
        case "move": ("move", ["direction": "forward", "period": 1, "power_on": true])
        case "stop": ("off", ["power_off": false])
        default: (effect, ["power_on": true])
        }
    }
}
