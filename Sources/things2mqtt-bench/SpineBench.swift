import Bridge
import BridgeConfig
import BridgeCore
import Foundation
import Logging
import Mosquitto
import Synchronization
import Harness
import LIFXModels
import Things2MQTTApp

/// Figures for the bridge itself: broker round trip, start-up, idle memory, `/set` to driver dispatch.
struct SpineBench {
    let broker: Broker

    /// Client → broker → client on one connection: the floor every bridge latency sits on.
    func brokerRoundTrip(samples: Int) async throws -> LatencySample {
        let client = try BenchClient(port: broker.port)
        try await client.connect()
        client.client.subscribe("bench/rtt", qos: 1)
        try await Task.sleep(for: .milliseconds(200))
        var sample = LatencySample()
        for index in -10..<samples {
            let mark = client.count
            let payload = Array("\(index)".utf8)
            let sent = ContinuousClock.now
            client.client.publish("bench/rtt", payload: payload, qos: 1, retain: false)
            let hit = try await client.waitFor(after: mark) { $0.topic == "bench/rtt" && $0.payload == payload }
            if index >= 0 { sample.add(hit.at - sent) }
        }
        await client.close()
        return sample
    }

    /// Time from spawning the daemon to the retained `bridge/state` online, and its resident memory once idle.
    func startup(runs: Int, idleSeconds: Double) async throws -> (LatencySample, Resident?) {
        var sample = LatencySample()
        var rss: Resident?
        for run in 0..<runs {
            let base = "bench_start_\(run)"
            let client = try BenchClient(port: broker.port)
            try await client.connect()
            client.client.subscribe("\(base)/bridge/state", qos: 1)
            try await Task.sleep(for: .milliseconds(200))
            let started = ContinuousClock.now
            let process = try BridgeProcess.start(config: TestConfig.yaml(port: broker.port, base: base))
            let online = try await client.waitFor(after: 0) { String(decoding: $0.payload, as: UTF8.self).contains("online") }
            sample.add(online.at - started)
            if run == runs - 1 {
                try await Task.sleep(for: .milliseconds(Int64(idleSeconds * 1000)))
                rss = Resident(pid: process.child.pid)
            }
            _ = try await process.terminate()
            await client.close()
        }
        return (sample, rss)
    }

    /// A `/set` published by a client until the bridge hands the parsed command to the driver (in-process bridge).
    func setToDispatch(samples: Int) async throws -> LatencySample {
        let config = try ConfigLoader.parse(yaml: TestConfig.yaml(port: broker.port, base: "bench_dispatch", extra: "devices:\n  lifx_bench:\n    alias: bench_light\n"), file: "bench.yaml", families: Families.sections)
        let inbox = BridgeInbox()
        let mqtt = try MosquittoClient(
            options: MosquittoOptions(config), logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }),
            deliver: inbox.transportHandler)
        let driver = TimestampDriver(sink: inbox.deviceSink)
        let bridge = BridgeService(
            config: config, transport: mqtt, drivers: [driver], inbox: inbox,
            logLevel: LogLevelControl(.error), options: BridgeOptions(version: "bench"),
            logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
        return try await withThrowingTaskGroup(of: Void.self, returning: LatencySample.self) { group in
            group.addTask { await mqtt.run() }
            group.addTask { try? await bridge.run() }
            group.addTask { try? await driver.run() }
            let client = try BenchClient(port: broker.port)
            try await client.connect()
            try await Task.sleep(for: .milliseconds(500))
            var sample = LatencySample()
            for index in 0..<samples {
                let before = driver.count
                let sent = ContinuousClock.now
                client.client.publish(
                    "bench_dispatch/bench_light/set", payload: Array("{\"brightness\":\(index % 256)}".utf8), qos: 1, retain: false)
                let deadline = ContinuousClock.now + .seconds(5)
                while driver.count == before, ContinuousClock.now < deadline { try await Task.sleep(for: .microseconds(100)) }
                guard let dispatched = driver.last, driver.count > before else { throw BenchError("command not dispatched") }
                sample.add(dispatched - sent)
            }
            await client.close()
            // The MQTT client ends once it has said goodbye; the bridge and the driver when cancelled.
            await mqtt.shutdown()
            group.cancelAll()
            return sample
        }
    }
}

/// A driver with one light that records when each command reaches it.
final class TimestampDriver: DeviceDriver {
    let integration = Integration.lifx
    let sink: DeviceEventSink
    private let stamps = Mutex<[ContinuousClock.Instant]>([])

    init(sink: DeviceEventSink) { self.sink = sink }

    var count: Int { stamps.withLock { $0.count } }
    var last: ContinuousClock.Instant? { stamps.withLock { $0.last } }

    func run() async throws {
        sink.send(.discovered(DeviceDescriptor(
            id: .lifx(light: "bench"), kind: "light", manufacturer: "bench", model: "bench",
            exposes: [.light(LightFeatures(colorModes: []))], switchable: true)))
        sink.send(.status(.lifx(light: "bench"), .ready))
        while !Task.isCancelled { try await Task.sleep(for: .seconds(1)) }
    }

    func perform(_ command: DeviceCommand, on device: DeviceID) async throws(CommandError) {
        stamps.withLock { $0.append(.now) }
    }

    func handleRequest(_ name: String, payload: [String: JSONValue]) async throws(CommandError) -> JSONValue { .null }

    func forget(_ device: DeviceID) async {}
}
