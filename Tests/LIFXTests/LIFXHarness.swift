import BridgeCore
import Foundation
import LIFXSimulator
import TestSupport

/// The real daemon, a real broker and the LIFX cloud simulator, wired together for one test.
final class LIFXHarness: Sendable {
    static let token = "s3cr3t-lifx-t0ken-9f8e7d"
    let broker: Broker
    let simulator: LIFXCloudSimulator
    let bridge: BridgeProcess
    let client: TestClient
    let base: String

    /// Starts everything and waits until the bridge lists `expectDevices` devices.
    static func start(
        simulator: LIFXCloudSimulator = .demo(token: token), token: String = token, legacy: Bool = false,
        pollInterval: String = "30s", logLevel: String = "debug", expectDevices: Int? = 8, devicesYAML: String = ""
    ) async throws -> LIFXHarness {
        let broker = try await Broker.start()
        _ = try await simulator.start()
        let base = "lifx_test"
        let config = TestConfig.yaml(
            port: broker.port, base: base, logLevel: logLevel, legacy: legacy,
            extra: """
                lifx:
                  enabled: true
                  token: \(token)
                  api_url: \(simulator.baseURL)
                  poll_interval: \(pollInterval)
                \(devicesYAML)
                """)
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("\(base)/#")
        let bridge = try BridgeProcess.start(config: config)
        let harness = LIFXHarness(broker: broker, simulator: simulator, bridge: bridge, client: client, base: base)
        if let expectDevices {
            try await client.waitForMessage(topic: "\(base)/bridge/devices", timeout: .seconds(20)) { message in
                if case .array(let list)? = message.json { return list.count >= expectDevices }
                return false
            }
        }
        return harness
    }

    private init(broker: Broker, simulator: LIFXCloudSimulator, bridge: BridgeProcess, client: TestClient, base: String) {
        self.broker = broker
        self.simulator = simulator
        self.bridge = bridge
        self.client = client
        self.base = base
    }

    /// Stops the daemon and the simulator; returns the daemon's exit status.
    @discardableResult
    func stop() async throws -> Int32 {
        let status = try await bridge.terminate()
        await client.close()
        try await simulator.stop()
        return status
    }

    /// Publishes a `/set` payload for an alias.
    func set(_ alias: String, _ payload: String, attribute: String? = nil) {
        client.publish("\(base)/\(alias)/set" + (attribute.map { "/" + $0 } ?? ""), payload)
    }

    /// Waits for requests the simulator recorded that match.
    func requests(
        count: Int = 1, timeout: Duration = .seconds(10), where predicate: @escaping @Sendable (RecordedRequest) -> Bool
    ) async throws -> [RecordedRequest] {
        try await simulator.waitForRequests(count: count, where: predicate, timeout: timeout)
    }

    /// Write requests recorded so far (anything but GET).
    var writes: [RecordedRequest] { simulator.requests().filter { $0.method != "GET" } }
}

extension RecordedRequest {
    /// The body as a JSON value.
    var json: JSONValue? { JSONValue.parse(Array(body.utf8)) }
}
