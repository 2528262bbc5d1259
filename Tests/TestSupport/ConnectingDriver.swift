public import BridgeCore
import Synchronization

/// A scripted driver whose devices hold connections: connects after a set delay (or fails), records
/// connects, disconnects and the remembered set the bridge tells it.
public final class ConnectingDriver: ConnectionControl {
    private struct Script {
        var connectDelay: Duration = .zero
        var connectFailure: CommandError?
        var calls: [String] = []
        var remembered: Set<DeviceID> = []
        var rememberedCalls: [(DeviceID, Bool)] = []
    }

    /// The events, commands and requests part, as for any scripted driver.
    public let scripted: ScriptedDriver
    private let script = Mutex(Script())

    /// Creates a driver for `integration` that reports through `sink`.
    public init(integration: Integration, sink: DeviceEventSink) {
        scripted = ScriptedDriver(integration: integration, sink: sink)
    }

    /// The family this driver pretends to be.
    public var integration: Integration { scripted.integration }

    /// Makes `connect` take this long for `delay`, then throw `failure` if one is given.
    public func connectBehaviour(delay: Duration, failure: CommandError? = nil) {
        script.withLock { $0.connectDelay = delay; $0.connectFailure = failure }
    }

    /// `connect <id>`, `disconnect <id>` in the order the bridge called them.
    public var calls: [String] { script.withLock { $0.calls } }

    /// The devices the bridge said are remembered.
    public var remembered: Set<DeviceID> { script.withLock { $0.remembered } }

    /// Every `setRemembered` call, in the order it arrived.
    public var rememberedCalls: [(DeviceID, Bool)] { script.withLock { $0.rememberedCalls } }

    /// Connects after the scripted delay and reports `ready`.
    public func connect(_ device: DeviceID) async throws(CommandError) {
        let (delay, failure) = script.withLock { script in
            script.calls.append("connect \(device)")
            return (script.connectDelay, script.connectFailure)
        }
        scripted.emit(.status(device, .connecting))
        do { try await Task.sleep(for: delay) } catch { throw CommandError("connect to \(device) cancelled") }
        if let failure { throw failure }
        scripted.emit(.status(device, .ready))
    }

    /// Disconnects at once and reports `available`.
    public func disconnect(_ device: DeviceID) async throws(CommandError) {
        script.withLock { $0.calls.append("disconnect \(device)") }
        scripted.emit(.status(device, .available))
    }

    /// Records the remembered set.
    public func setRemembered(_ device: DeviceID, _ remembered: Bool) async {
        // A suspension of varying length, as a real driver's busy actor has: calls sent unordered overtake here.
        try? await Task.sleep(for: .microseconds(Int.random(in: 0..<3000)))
        script.withLock { script in
            script.rememberedCalls.append((device, remembered))
            if remembered { script.remembered.insert(device) } else { script.remembered.remove(device) }
        }
    }

    /// Idles until cancelled.
    public func run() async throws { try await scripted.run() }

    /// Records the command.
    public func perform(_ command: DeviceCommand, on device: DeviceID) async throws(CommandError) {
        try await scripted.perform(command, on: device)
    }

    /// Answers like the scripted driver.
    public func handleRequest(_ name: String, payload: [String: JSONValue]) async throws(CommandError) -> JSONValue {
        try await scripted.handleRequest(name, payload: payload)
    }

    /// Records the device.
    public func forget(_ device: DeviceID) async { await scripted.forget(device) }
}
