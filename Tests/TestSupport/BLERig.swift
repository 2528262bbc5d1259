import Foundation

/// A broker, the BlueZ stand-in and the daemon on both: what every BLE test through the daemon starts with.
public struct BLERig: Sendable {
    public let broker: Broker
    public let standIn: BlueZStandIn
    public let bridge: BridgeProcess

    /// Adds `novas` (addresses) to the stand-in, then starts the daemon with `ble:` enabled plus `ble` lines
    /// and any top-level `extra` YAML, and waits until it is ready. `liveSignal` publishes every RSSI reading
    /// (`rssi_interval: 0s`), which tests of signal and policies need.
    public static func start(
        novas: [String] = [], ble: String = "", extra: String = "", files: [String: String] = [:], liveSignal: Bool = true,
        logLevel: String = "info"
    ) async throws -> BLERig {
        let broker = try await Broker.start()
        let standIn = try await BlueZStandIn.start()
        for address in novas { try await standIn.mock("AddNova", [.string("hci0"), .string(address)]) }
        let live = liveSignal ? "  rssi_interval: 0s\n" : ""
        let config = TestConfig.yaml(port: broker.port, logLevel: logLevel, extra: extra + "ble:\n  enabled: true\n" + live + ble)
        let bridge = try BridgeProcess.start(config: config, files: files, environment: standIn.environment)
        try await bridge.waitUntilReady(on: broker)
        return BLERig(broker: broker, standIn: standIn, bridge: bridge)
    }

    /// `ble:` lines for one rule matching Nova flashes.
    public static func novaRule(_ policy: String, more: String = "") -> String {
        "  connect:\n    - match: {class: nova}\n      policy: \(policy)\n" + more
    }

    /// The same daemon config started again, with `files` (such as the alias file) in its folder.
    public func restartBridge(files: [String: String]) async throws -> BridgeProcess {
        let config = try String(contentsOfFile: bridge.configPath, encoding: .utf8)
        let again = try BridgeProcess.start(config: config, files: files, environment: standIn.environment)
        try await again.waitUntilReady(on: broker)
        return again
    }
}
