import BridgeCore
import Foundation
import Harness

/// BLE memory with 1,000 devices in range (advert ingest is `AdvertIngest`).
struct BLEBench {
    let broker: Broker

    /// The daemon's memory with `count` BLE devices in range and published (admitted through a permit window).
    func memory(devices count: Int) async throws -> Resident? {
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
        let rss = Resident(pid: process.child.pid)
        await client.close()
        _ = try await process.terminate()
        return rss
    }
}
