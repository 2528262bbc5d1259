import BridgeCore
import Foundation
import Harness

/// Passive sensors: memory with 1,000 sensors and after 1,000 random addresses, and what a 10 Hz advertiser
/// costs the broker (decoded advert ingest is `AdvertIngest`).
struct PassiveBench {
    let broker: Broker
    static let sensor = BlueZStandIn.devicePath("02:B7:00:00:FF:FF")

    /// The daemon on a fresh stand-in, with `ble` lines, ready.
    private func daemon(base: String, ble: String = "") async throws -> (BlueZStandIn, BridgeProcess) {
        let standIn = try await BlueZStandIn.start()
        let config = TestConfig.yaml(port: broker.port, base: base, logLevel: "warning", extra: "ble:\n  enabled: true\n" + ble)
        let process = try BridgeProcess.start(config: config, environment: standIn.environment)
        try await process.waitUntilReady(on: broker, base: base)
        return (standIn, process)
    }

    struct Memory {
        var idle = 0.0, sensors = 0.0, random = 0.0, expired = 0.0
        var topicsBefore = 0, topicsAfter = 0
    }

    /// RSS idle, with `count` BTHome sensors published, and after `count` random addresses on top.
    func memory(count: Int) async throws -> Memory {
        let base = "bench_passive_rss"
        // Every sensor at once: more than the defaults let in without a permit window.
        let (standIn, process) = try await daemon(base: base, ble: "  max_passive_devices: 4096\n  passive_burst: 1000\n")
        var result = Memory()
        try await Task.sleep(for: .seconds(1))
        result.idle = residentMiB(pid: process.child.pid) ?? .nan
        try await standIn.mock("AddBTHomeSensors", [.string("hci0"), .uint32(UInt32(count))])
        try await waitUntil("\(count) sensors published", timeout: .seconds(120), every: .milliseconds(200)) {
            guard case .array(let list)? = try await broker.retainedJSON("\(base)/bridge/devices") else { return false }
            return list.count >= count
        }
        try await Task.sleep(for: settleBeforeRSS)
        result.sensors = residentMiB(pid: process.child.pid) ?? .nan
        result.topicsBefore = try await broker.retainedMessages(under: "\(base)/#").count
        let phones = try await standIn.mock(
            "AddRandomDevices", [.string("hci0"), .uint32(UInt32(count)), .int16(-60), .string("Phone")]
        ).first?.array?.compactMap(\.string) ?? []
        try await waitUntil("\(count) random addresses counted", timeout: .seconds(120), every: .milliseconds(200)) {
            try await broker.retainedJSON("\(base)/bridge/info")?["integrations"]?["ble"]?["ignored_devices"] == .number(Double(count))
        }
        try await Task.sleep(for: settleBeforeRSS)
        result.random = residentMiB(pid: process.child.pid) ?? .nan
        result.topicsAfter = try await broker.retainedMessages(under: "\(base)/#").count
        // BlueZ forgets addresses it has not heard for its temporary-device timeout; what the bridge kept for
        // them must go with them.
        try await standIn.mock("ExpireDevices", [.strings(phones)])
        try await Task.sleep(for: settleBeforeRSS)
        result.expired = residentMiB(pid: process.child.pid) ?? .nan
        _ = try await process.terminate()
        return result
    }

    /// A sensor advertising ten times a second for `seconds`, its temperature and RSSI jittering a little, with
    /// the default intervals: how many times its state is published.
    func chatty(seconds: Int) async throws -> Int {
        let base = "bench_passive_10hz"
        let (standIn, process) = try await daemon(base: base)
        try await standIn.mock("AddDevice", [.string("hci0"), .string("02:B7:00:00:FF:FF"), .string("BTHome")])
        let client = try BenchClient(port: broker.port)
        try await client.connect()
        client.client.subscribe("\(base)/ble_02b70000ffff", qos: 1)
        try await Task.sleep(for: .milliseconds(300))
        let start = ContinuousClock.now
        var packet = 0
        while ContinuousClock.now - start < .seconds(seconds) {
            packet += 1
            let centidegrees = 2000 + packet % 3
            let payload: [UInt8] = [0x40, 0x00, UInt8(packet % 256), 0x02, UInt8(centidegrees & 0xFF), UInt8(centidegrees >> 8)]
            try await standIn.advertise(Self.sensor, rssi: Int16(-60 - packet % 3), serviceData: ["fcd2": payload])
            try await Task.sleep(until: start + .milliseconds(100 * packet))
        }
        let published = client.sink.all.filter { !$0.retained && $0.topic == "\(base)/ble_02b70000ffff" }.count
        await client.close()
        _ = try await process.terminate()
        return published
    }
}
