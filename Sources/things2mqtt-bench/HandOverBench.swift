import BridgeCore
import DBus
import Foundation
import Harness

/// Two bridges, each with its own BlueZ stand-in, and one Nova flash their connect rules connect. The flash
/// moves from one bridge to the other in one step (−55 ↔ −85 dBm), again and again, at the default cluster
/// timings: how long from the move until the new owner's claim is out, and until the new owner holds the
/// connection (the old one having dropped it first). On a broker of its own.
struct HandOverBench {
    let rounds: Int
    static let address = "AA:BB:CC:DD:EE:01"
    static let base = "bench_move"

    struct Figures {
        var claimed = LatencySample()
        var connected = LatencySample()
        var overlaps = 0
    }

    /// Which bridge the flash is near, read by the advert task.
    final class Near: @unchecked Sendable {
        private let lock = NSLock()
        private var index = 0
        var value: Int {
            get { lock.withLock { index } }
            set { lock.withLock { index = newValue } }
        }
    }

    func run() async throws -> Figures {
        // A broker of its own: none of the earlier figures' retained messages or sessions.
        let broker = try await Broker.start()
        let names = ["m1", "m2"]
        var standIns: [BlueZStandIn] = [], processes: [BridgeProcess] = []
        for (index, name) in names.enumerated() {
            let standIn = try await BlueZStandIn.start()
            try await standIn.mock("AddNova", [.string("hci0"), .string(Self.address)])
            let config = TestConfig.yaml(
                port: broker.port, base: Self.base, logLevel: "warning",
                extra: "ble:\n  enabled: true\n  connect:\n    - match: {class: nova}\n      policy: all\n"
                    + "cluster:\n  bridge_id: \(name)\n  room: room\(index + 1)\n")
            processes.append(try BridgeProcess.start(config: config, environment: standIn.environment))
            standIns.append(standIn)
        }
        let buses = try await standIns.asyncMap { try await DBusConnection.connect(to: DBusAddress($0.daemon.address)) }
        let client = try await TestClient.connect(to: broker)
        let topic = "\(Self.base)/_cluster/claims/\(Self.address.deviceIDText)"
        try await client.subscribe(topic)
        let near = Near()
        let overlaps = ClusterBench.Counter()
        var figures = Figures()
        let stations = standIns
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                let path = BlueZStandIn.devicePath(Self.address)
                while !Task.isCancelled {
                    for (index, standIn) in stations.enumerated() {
                        try? await standIn.advertise(path, rssi: index == near.value ? -55 : -85)
                    }
                    try? await Task.sleep(for: .milliseconds(300))
                }
            }
            defer { group.cancelAll() }
            do {
                try await waitUntil("m1 holds the flash", timeout: .seconds(60), every: .milliseconds(50)) {
                    let (first, second) = (try await Self.connected(buses[0]), try await Self.connected(buses[1]))
                    return first && !second
                }
            } catch {
                for (name, process) in zip(names, processes) {
                    print("\(name) running \(process.isRunning):\n\(process.stderr.suffix(4000))")
                    print("presence: \(String(describing: try? await broker.retainedJSON("\(Self.base)/_cluster/bridges/\(name)")))")
                }
                print(client.messages(on: topic).map(\.description).joined(separator: "\n"))
                throw error
            }
            for round in 1...rounds {
                let to = round % 2
                let mark = client.mark
                near.value = to
                let moved = ContinuousClock.now
                try await client.waitForMessage(topic: topic, after: mark, timeout: .seconds(60)) { $0.json?["owner"] == .string(names[to]) }
                figures.claimed.add(ContinuousClock.now - moved)
                try await waitUntil("\(names[to]) holds the flash", timeout: .seconds(60), every: .milliseconds(10)) {
                    let (old, new) = (try await Self.connected(buses[1 - to]), try await Self.connected(buses[to]))
                    if old && new { overlaps.add(1) }
                    return new && !old
                }
                figures.connected.add(ContinuousClock.now - moved)
            }
        }
        figures.overlaps = overlaps.count
        await client.close()
        for bus in buses { await bus.close() }
        for process in processes where process.isRunning { _ = try await process.terminate() }
        for standIn in standIns { try? await standIn.stop() }
        try? await broker.stop()
        return figures
    }

    /// Whether the stand-in's BlueZ has the flash connected.
    static func connected(_ bus: DBusConnection) async throws -> Bool {
        let reply = try await bus.call(
            destination: "org.bluez", path: BlueZStandIn.devicePath(address), interface: "org.freedesktop.DBus.Properties",
            method: "Get", arguments: [.string("org.bluez.Device1"), .string("Connected")])
        return reply.first?.bool ?? false
    }
}

extension String {
    /// A BLE address as its device id (`ble_aabbccddee01`).
    fileprivate var deviceIDText: String { "ble_" + lowercased().filter { $0 != ":" } }
}

extension Array {
    /// Maps in order, one element at a time.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async throws -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
