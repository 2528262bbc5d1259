import BridgeCore
import DBus
import Foundation
import TestSupport

/// BLE figures: advert ingest through the daemon next to a bare libdbus receiver in the same run, CPU per
/// 1,000 signals, memory through a burst and with 1,000 devices in range.
struct BLEBench {
    let broker: Broker
    static let nova = "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01"

    struct Ingest {
        var count = 0
        var timing = BurstTiming()
        var rssBefore = 0.0
        var rssAfter = 0.0
        var finalRSSI: JSONValue?
    }

    /// A burst of `count` RSSI adverts for one Nova: until the bare receiver has them all, and until the
    /// daemon has published the burst's last value.
    func ingest(count: Int) async throws -> Ingest {
        let standIn = try await BlueZStandIn.start()
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:01")])
        let config = TestConfig.yaml(
            port: broker.port, base: "bench_ble", logLevel: "warning",
            extra: "ble:\n  enabled: true\n  rssi_interval: 0s\n  connect:\n    - match: {class: nova}\n      policy: never\n")
        let process = try BridgeProcess.start(config: config, environment: standIn.environment)
        try await process.waitUntilReady(on: broker, base: "bench_ble")
        try await waitUntil("the Nova published", timeout: .seconds(20)) { try await broker.retained("bench_ble/ble_aabbccddee01") != nil }

        var result = Ingest(count: count)
        result.rssBefore = residentMiB(pid: process.child.pid) ?? .nan
        result.timing = try await BurstTiming.measure(
            bus: standIn.daemon.address, device: Self.nova, count: count, daemon: process.child.pid,
            what: "the burst's last RSSI published",
            send: { try await standIn.mock("AdvertiseBurst", [.string(Self.nova), .uint32(UInt32(count)), .int32(-50)]) },
            published: { try await broker.retainedJSON("bench_ble/ble_aabbccddee01")?["rssi"] == -50 })
        result.rssAfter = residentMiB(pid: process.child.pid) ?? .nan
        result.finalRSSI = try await broker.retainedJSON("bench_ble/ble_aabbccddee01")?["rssi"]
        _ = try await process.terminate()
        return result
    }

    /// The daemon's memory with `count` BLE devices in range and published (admitted through a permit window).
    func memory(devices count: Int) async throws -> Double {
        let standIn = try await BlueZStandIn.start()
        let config = TestConfig.yaml(port: broker.port, base: "bench_ble_rss", logLevel: "warning", extra: "ble:\n  enabled: true\n  rssi_interval: 0s\n")
        let process = try BridgeProcess.start(config: config, environment: standIn.environment)
        try await process.waitUntilReady(on: broker, base: "bench_ble_rss")
        let client = try await TestClient.connect(to: broker)
        _ = try await client.request("ble/permit", #"{"time": 600}"#, base: "bench_ble_rss")
        for index in 0..<count {
            let address = String(format: "02:00:00:00:%02X:%02X", index / 256, index % 256)
            try await standIn.mock("AddDevice", [.string("hci0"), .string(address), .string("Sensor \(index)")])
        }
        try await waitUntil("\(count) devices published", timeout: .seconds(120), every: .milliseconds(200)) {
            guard case .array(let list)? = try await broker.retainedJSON("bench_ble_rss/bridge/devices") else { return false }
            return list.count >= count
        }
        try await Task.sleep(for: settleBeforeRSS)
        let rss = residentMiB(pid: process.child.pid) ?? .nan
        await client.close()
        _ = try await process.terminate()
        return rss
    }

}
