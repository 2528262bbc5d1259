import Bridge
import BridgeConfig
import BridgeCore
import Frontend
import Logging
import Synchronization
import Testing
import TestSupport

/// The frontend in the test process over a `MemoryBridge`, on a free port of 127.0.0.1.
final class FrontendHarness: Sendable {
    let bridge: MemoryBridge
    let tap: PublishTap
    let port: Int
    let connected: Flag
    private let task: Task<Void, any Error>

    var url: String { "http://127.0.0.1:\(port)" }
    var api: String { "ws://127.0.0.1:\(port)/api" }

    static func start(
        token: String? = nil, authTimeout: Duration = .seconds(5), requestTimeout: Duration = .seconds(20),
        limits: TapLimits = TapLimits(), lights: Int = 1,
        maxSockets: Int = 64, maxConnections: Int = 128, logs: LogRing? = nil, allowFrom: [String] = [],
        baseURL: String? = nil, logger: Logger = Logger(label: "frontend-test")
    ) async throws -> FrontendHarness {
        let tap = PublishTap(base: "t2m", limits: limits)
        var options = BridgeOptions.fastForTests()
        options.publishTap = tap
        let bridge = try await MemoryBridge.start(options: options)
        for index in 1...lights {
            let hex = String(index, radix: 16)
            let id = "lifx_d073d5" + String(repeating: "0", count: 6 - hex.count) + hex
            bridge.driver().announce(Fixtures.colorLight(id, label: "Light \(index)"), state: ["state": "OFF", "brightness": .number(Double(index % 255))])
        }
        _ = try await bridge.waitForPublish("t2m/lifx_d073d5000001")
        try await waitUntil("\(lights) lights in bridge/devices", timeout: .seconds(30)) {
            guard case .array(let list)? = bridge.transport.retained("t2m/bridge/devices").flatMap({ try? JSONValue.parse($0, limits: JSONLimits(maxBytes: .max, maxDepth: 64)) })
            else { return false }
            return list.count == lights
        }
        var settings = FrontendSettings()
        settings.enabled = true
        settings.port = 0
        settings.authToken = token.map { Secret($0) }
        settings.allowFrom = allowFrom
        settings.baseURL = baseURL
        let connected = Flag()
        let link = FrontendLink(tap: tap, inbox: bridge.inbox, base: "t2m", isConnected: { connected.value }, logs: logs)
        let port = Mutex(0)
        let service = FrontendService(
            settings: settings, link: link, logger: logger, authTimeout: authTimeout, requestTimeout: requestTimeout,
            maxSockets: maxSockets, maxConnections: maxConnections, onListening: { bound in port.withLock { $0 = bound } })
        let task = Task { try await service.run() }
        let bound = try await waitForValue("the frontend's port", timeout: .seconds(20)) { port.withLock { $0 == 0 ? nil : $0 } }
        return FrontendHarness(bridge: bridge, tap: tap, port: bound, connected: connected, task: task)
    }

    private init(bridge: MemoryBridge, tap: PublishTap, port: Int, connected: Flag, task: Task<Void, any Error>) {
        self.bridge = bridge
        self.tap = tap
        self.port = port
        self.connected = connected
        self.task = task
    }

    func stop() async {
        do {
            try await withTimeLimit("the frontend and its bridge to stop", .seconds(30)) { [self] in
                task.cancel()
                _ = await task.result
                await bridge.stop()
            }
        } catch {
            Issue.record(error)
        }
    }
}

/// What `healthz` reads as the broker connection, set by the test.
final class Flag: Sendable {
    private let state = Mutex(true)
    var value: Bool {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
