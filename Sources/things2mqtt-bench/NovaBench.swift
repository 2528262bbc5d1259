import BridgeCore
import DBus
import Foundation
import Synchronization
import Harness

/// `/set` → Nova frame at the flash, from an external MQTT client against the release daemon and the BlueZ
/// stand-in, next to the broker echo of the same client in the same run.
///
/// The stand-in acknowledges a frame inside its WriteValue handler, so the flash's `(xx:A)` notification,
/// seen by the benchmark on the bus, marks the frame's arrival (plus one D-Bus signal hop).
struct NovaBench {
    let broker: Broker
    let base = "bench_nova"
    static let nova = BlueZStandIn.devicePath("AA:BB:CC:DD:EE:01")
    static let response = nova + "/service0010/char0013"

    struct Figures {
        var echo = LatencySample()
        var setToFrame = LatencySample()
    }

    func run(samples: Int) async throws -> Figures {
        let standIn = try await BlueZStandIn.start()
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:01")])
        let config = TestConfig.yaml(
            port: broker.port, base: base, logLevel: "warning",
            extra: "ble:\n  enabled: true\n  rssi_interval: 0s\n  connect:\n    - match: {class: nova}\n      policy: all\n")
        let process = try BridgeProcess.start(config: config, environment: standIn.environment)
        try await process.waitUntilReady(on: broker, base: base)
        try await waitUntil("the Nova connected", timeout: .seconds(20)) {
            try await broker.retainedJSON("\(base)/ble_aabbccddee01")?["status"] == "ready"
        }
        let acks = try await AckWatch(daemon: standIn.daemon.address, path: Self.response)
        let client = try BenchClient(port: broker.port)
        try await client.connect()
        client.client.subscribe("bench/echo", qos: 1)
        try await Task.sleep(for: .milliseconds(300))

        let figures = try await withThrowingTaskGroup(of: Void.self, returning: Figures.self) { group in
            group.addTask { await acks.watch() }
            var figures = Figures()
            for index in -10..<samples {
                let echo = try await ExternalBench(broker: broker).echo(client, qos: 1, tag: "nova \(index)")
                // ON then OFF: OFF cancels the renewal an ON schedules, so no renewal ack mixes into the figures.
                let on = try await setToFrame(client, acks, #"{"state":"ON","brightness":\#(60 + index % 150)}"#)
                _ = try await setToFrame(client, acks, "OFF")
                if index >= 0 {
                    figures.echo.add(echo)
                    figures.setToFrame.add(on)
                }
            }
            group.cancelAll()
            return figures
        }
        await client.close()
        await acks.close()
        _ = try await process.terminate()
        withExtendedLifetime(standIn) {}
        return figures
    }

    private func setToFrame(_ client: BenchClient, _ acks: AckWatch, _ payload: String) async throws -> Duration {
        let seen = acks.count
        let sent = ContinuousClock.now
        client.client.publish("\(base)/ble_aabbccddee01/set", payload: Array(payload.utf8), qos: 1, retain: false)
        let deadline = sent + .seconds(5)
        while ContinuousClock.now < deadline {
            if let at = acks.arrival(after: seen) { return at - sent }
            try await Task.sleep(for: .microseconds(100))
        }
        throw BenchError("no Nova ack for \(payload)")
    }
}

/// Timestamps every `(xx:A)` the flash sends, as a subscriber on the bus sees it.
final class AckWatch: Sendable {
    private let connection: DBusConnection
    private let arrivals = Arrivals()
    private let signals: AsyncStream<DBusSignal>

    /// Subscribes; nothing is timestamped until `watch()` runs.
    init(daemon address: String, path: String) async throws {
        connection = try await DBusConnection.connect(to: DBusAddress(address))
        signals = try await connection.subscribe(
            DBusMatchRule(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", path: path))
    }

    /// Timestamps acks until cancelled or closed; run it in the measuring task's group.
    func watch() async {
        for await signal in signals where signal.body.count > 1 && signal.body[1].dictionary?["Value"] != nil {
            arrivals.add(ContinuousClock.now)
        }
    }

    var count: Int { arrivals.count }

    func arrival(after index: Int) -> ContinuousClock.Instant? { arrivals.at(index) }

    func close() async { await connection.close() }
}

/// Thread-safe list of instants.
final class Arrivals: Sendable {
    private let store = Mutex<[ContinuousClock.Instant]>([])
    func add(_ instant: ContinuousClock.Instant) { store.withLock { $0.append(instant) } }
    var count: Int { store.withLock { $0.count } }
    func at(_ index: Int) -> ContinuousClock.Instant? { store.withLock { $0.count > index ? $0[index] : nil } }
}
