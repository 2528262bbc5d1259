import EV3Link
import EV3Protocol
import EV3Simulator
import Logging
import Synchronization
import Testing
import Support

/// A link run against a simulator: the link's events collected, helpers to wait for them.
final class LinkHarness: Sendable {
    let simulator: EV3BrickSimulator
    let link: EV3Link
    private let recorded = Mutex<[EV3LinkEvent]>([])
    private let tasks = Mutex<[Task<Void, Never>]>([])

    init(simulator: EV3BrickSimulator, endpoint: EV3Endpoint, options: EV3LinkOptions? = nil) {
        self.simulator = simulator
        var logger = Logger(label: "ev3-link-test")
        logger.logLevel = .warning
        // Unless a test is about timeouts, replies get 5 s: on a loaded machine a starved test process must
        // not turn a slow reply into a spurious timeout. The real defaults are tested on their own.
        var relaxed = EV3LinkOptions.defaults(for: endpoint.transport)
        relaxed.replyTimeout = .seconds(5)
        link = EV3Link(endpoint: endpoint, options: options ?? relaxed, logger: logger)
        let link = link
        let collect = Task { [self] in
            for await event in link.events { recorded.withLock { $0.append(event) } }
        }
        let run = Task { await link.run(backoff: Backoff(initial: .milliseconds(20), maximum: .milliseconds(200))) }
        tasks.withLock { $0 = [collect, run] }
    }

    /// A brick on WiFi (TCP on a free port), reached by host like a configured brick.
    static func wifi(
        _ setup: EV3SimulatorSetup = EV3SimulatorSetup(), options: EV3LinkOptions? = nil
    ) throws -> LinkHarness {
        let simulator = EV3BrickSimulator(setup: setup)
        let port = try simulator.startWiFi(port: 0)
        return LinkHarness(simulator: simulator, endpoint: .wifi(host: "127.0.0.1", port: port), options: options)
    }

    /// Options with a short timeout, so stalls are found quickly.
    static func quick(missed: Int = 2, timeout: Duration = .milliseconds(300)) -> EV3LinkOptions {
        var options = EV3LinkOptions(replyTimeout: timeout, minimumInterval: .zero)
        options.maxMissedReplies = missed
        options.queueLimit = 8
        return options
    }

    var events: [EV3LinkEvent] { recorded.withLock { $0 } }

    /// Waits until `count` events match, and returns the last of them.
    @discardableResult
    func waitFor(
        _ what: String, count: Int = 1, timeout: Duration = .seconds(30), _ match: @escaping @Sendable (EV3LinkEvent) -> Bool
    ) async throws -> EV3LinkEvent {
        try await eventually(timeout: timeout, what) { self.events.filter(match).count >= count }
        return events.filter(match)[count - 1]
    }

    /// Waits for the `count`th connection and returns the brick's info.
    @discardableResult
    func connected(count: Int = 1) async throws -> EV3BrickInfo {
        let event = try await waitFor("connection \(count)", count: count) {
            if case .connected = $0 { return true }
            return false
        }
        guard case .connected(let info) = event else { throw TestError("not a connection") }
        return info
    }

    /// Waits for the `count`th disconnection and returns its reason.
    @discardableResult
    func disconnected(count: Int = 1) async throws -> EV3LinkError {
        let event = try await waitFor("disconnection \(count)", count: count) {
            if case .disconnected = $0 { return true }
            return false
        }
        guard case .disconnected(let reason) = event else { throw TestError("not a disconnection") }
        return reason
    }

    /// Stops the link and the simulator.
    func stop() async {
        let running = tasks.withLock { $0 }
        running.last?.cancel()
        await running.last?.value
        running.first?.cancel()
        simulator.stop()
    }
}

/// The frames a simulator received whose bytecode starts with `opcode` (after the 7-byte header).
func frames(_ simulator: EV3BrickSimulator, opcode: UInt8) -> [[UInt8]] {
    simulator.receivedFrames().filter { $0.count > 7 && $0[7] == opcode }
}
