import BridgeCore
import DBus
import Foundation
import Support
import Harness

/// Three bridges, each with its own BlueZ stand-in, all hearing the same sensors (the strongest at −60 dBm, the
/// others at −70 and −80, each advert ±3 dB): the MQTT traffic per device next to one bridge alone under the
/// same adverts, and how long the devices take to move when the owner is killed.
struct ClusterBench {
    let broker: Broker
    let devices: Int
    /// Each stand-in advertises every device once per this period.
    let period = Duration.seconds(2)
    /// Longer than `rssi_interval` (60 s), so each bridge's steady state publishes fall inside.
    let window = Duration.seconds(60)

    struct Figures {
        var clusterPerDeviceMinute = 0.0, clusterSharePerDeviceMinute = 0.0, alonePerDeviceMinute = 0.0
        var advertRate = 0.0, aloneAdvertRate = 0.0
        var failover = LatencySample()
        var claimed = 0, ownedByKilled = 0
    }

    func run() async throws -> Figures {
        var figures = Figures()
        let alone = try await rig(bridges: ["solo"], base: "bench_alone", cluster: false)
        let (aloneCount, _, aloneRate) = try await withAdverts(alone) { try await traffic(alone, base: "bench_alone") }
        figures.alonePerDeviceMinute = aloneCount
        figures.aloneAdvertRate = aloneRate
        try await stop(alone)
        let cluster = try await rig(bridges: ["b1", "b2", "b3"], base: "bench_cluster", cluster: true)
        try await withAdverts(cluster) {
            try await waitUntil("every device claimed", timeout: .seconds(60), every: .milliseconds(250)) {
                try await claims(base: "bench_cluster").count >= devices
            }
            let (clusterCount, share, rate) = try await traffic(cluster, base: "bench_cluster")
            figures.clusterPerDeviceMinute = clusterCount
            figures.clusterSharePerDeviceMinute = share
            figures.advertRate = rate
            (figures.failover, figures.claimed, figures.ownedByKilled) = try await failover(cluster)
        }
        try await stop(cluster)
        return figures
    }

    struct Rig: Sendable {
        var processes: [BridgeProcess]
        var standIns: [BlueZStandIn]
        var paths: [String]
        let sent: Counter
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add(_ count: Int) { lock.withLock { value += count } }
        var count: Int { lock.withLock { value } }
    }

    private func rig(bridges: [String], base: String, cluster: Bool) async throws -> Rig {
        var processes: [BridgeProcess] = [], standIns: [BlueZStandIn] = []
        var paths: [String] = []
        for (index, bridge) in bridges.enumerated() {
            let standIn = try await BlueZStandIn.start()
            let added = try await standIn.mock("AddSensors", [.string("hci0"), .uint32(1), .uint32(UInt32(devices))])
            paths = added.first?.array?.compactMap(\.string) ?? []
            let section = cluster ? "cluster:\n  bridge_id: \(bridge)\n  room: room\(index + 1)\n" : ""
            let config = TestConfig.yaml(
                port: broker.port, base: base, logLevel: "warning",
                extra: "ble:\n  enabled: true\n  connect:\n    - match: {name: \"Sensor *\"}\n      policy: never\n" + section)
            processes.append(try BridgeProcess.start(config: config, environment: standIn.environment))
            standIns.append(standIn)
        }
        return Rig(processes: processes, standIns: standIns, paths: paths, sent: Counter())
    }

    /// Runs `body` while every stand-in advertises every sensor once per period (a child task, ended with it).
    private func withAdverts<T: Sendable>(_ rig: Rig, _ body: () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [period] in
                while !Task.isCancelled {
                    let started = ContinuousClock.now
                    for (standIn, rssi) in zip(rig.standIns, [-60, -70, -80]) {
                        let arguments: [DBusValue] = [.array("s", rig.paths.map { .string($0) }), .int32(Int32(rssi)), .uint32(3)]
                        if let reply = try? await standIn.mock("AdvertiseAll", arguments) { rig.sent.add(Int(reply.first?.uint32 ?? 0)) }
                    }
                    try? await Task.sleep(until: started + period)
                }
            }
            defer { group.cancelAll() }
            return try await body()
        }
    }

    /// Messages under the base per device per minute (and those of them on the cluster topic), and the adverts
    /// the stand-ins sent per second meanwhile.
    private func traffic(_ rig: Rig, base: String) async throws -> (Double, Double, Double) {
        // Past the first state of every device (published at the first advert) into the steady state.
        try await Task.sleep(for: .seconds(15))
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("\(base)/#")
        let mark = client.mark
        let sentBefore = rig.sent.count
        let start = ContinuousClock.now
        try await Task.sleep(for: window)
        let seconds = (ContinuousClock.now - start).inSeconds
        let live = client.messages.filter { $0.index >= mark && !$0.retained }
        let shared = live.filter { $0.topic.hasPrefix("\(base)/_cluster/") }
        await client.close()
        let perMinute = 60 / seconds / Double(devices)
        return (Double(live.count) * perMinute, Double(shared.count) * perMinute, Double(rig.sent.count - sentBefore) / seconds)
    }

    private func claims(base: String) async throws -> [String: JSONValue] {
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("\(base)/_cluster/claims/#")
        try await client.sync()
        var found: [String: JSONValue] = [:]
        for message in client.messages where message.retained { found[message.topic] = message.json }
        await client.close()
        return found
    }

    /// Kills `b1` (the strongest, so the owner of most devices) and times each of its devices' new claim from the kill.
    private func failover(_ rig: Rig) async throws -> (LatencySample, Int, Int) {
        let all = try await claims(base: "bench_cluster")
        let owned = Set(all.filter { $0.value["owner"] == "b1" }.keys)
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("bench_cluster/_cluster/claims/#")
        let mark = client.mark
        try await rig.processes[0].kill9()
        let killed = ContinuousClock.now
        var moved: [String: Duration] = [:]
        while moved.count < owned.count, ContinuousClock.now - killed < .seconds(60) {
            for message in client.messages where message.index >= mark && owned.contains(message.topic) && moved[message.topic] == nil {
                if message.json?["owner"] != "b1" { moved[message.topic] = ContinuousClock.now - killed }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        await client.close()
        var sample = LatencySample()
        for duration in moved.values { sample.add(duration) }
        return (sample, moved.count, owned.count)
    }

    private func stop(_ rig: Rig) async throws {
        for process in rig.processes where process.isRunning { _ = try await process.terminate() }
        for standIn in rig.standIns { try? await standIn.stop() }
    }
}
