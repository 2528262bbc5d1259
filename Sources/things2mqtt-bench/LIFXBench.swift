import BridgeCore
import Foundation
import LIFXSimulator
import Harness

/// Figures for the LIFX integration: the daemon against the simulator over real HTTP.
struct LIFXBench {
    /// `bridge/devices` for a thousand lights is far larger than a command payload may be.
    static let devicesLimits = JSONLimits(maxBytes: 64 << 20, maxDepth: 64)

    let broker: Broker

    func config(base: String, simulator: LIFXCloudSimulator) -> String {
        TestConfig.yaml(
            port: broker.port, base: base, logLevel: "warning",
            extra: "lifx:\n  enabled: true\n  token: bench-token\n  api_url: \(simulator.baseURL)\n  poll_interval: 30s\n")
    }

    /// Starts the simulator and the daemon against it, and waits until the daemon lists `count` devices.
    func start(_ simulator: LIFXCloudSimulator, base: String, count: Int) async throws -> (BenchClient, BridgeProcess) {
        _ = try await simulator.start()
        let client = try BenchClient(port: broker.port)
        try await client.connect()
        client.client.subscribe("\(base)/bridge/devices", qos: 1)
        let process = try BridgeProcess.start(config: config(base: base, simulator: simulator))
        _ = try await client.waitFor(after: 0, timeout: .seconds(120)) { delivery in
            guard delivery.topic == "\(base)/bridge/devices", case .array(let list)? = try? JSONValue.parse(delivery.payload, limits: Self.devicesLimits) else { return false }
            return list.count >= count
        }
        return (client, process)
    }

    func finish(_ simulator: LIFXCloudSimulator, _ client: BenchClient, _ process: BridgeProcess) async throws {
        _ = try await process.terminate()
        try await simulator.stop()
        await client.close()
    }

    /// `/set` published → the request arrives at the simulator, with commands spaced beyond the write throttle.
    func setToRequest(samples: Int) async throws -> LatencySample {
        let simulator = LIFXCloudSimulator.demo(token: "bench-token")
        let base = "bench_lifx"
        let (client, process) = try await start(simulator, base: base, count: 5)
        var sample = LatencySample()
        for index in 0..<samples {
            let brightness = 20 + index % 200
            let expected = "\"brightness\":\(Double(Int((Double(brightness) / 255 * 10000).rounded())) / 10000)"
            let sent = Date()
            client.client.publish("\(base)/lifx_d073d5000001/set", payload: Array("{\"brightness\":\(brightness)}".utf8), qos: 1, retain: false)
            let hits = try await simulator.waitForRequests(count: 1, where: { $0.method == "PUT" && $0.body.contains(expected) }, timeout: .seconds(10))
            sample.add(milliseconds: hits[0].receivedAt.timeIntervalSince(sent) * 1000)
            simulator.clearRequests()
            try await Task.sleep(for: .milliseconds(400))
        }
        try await finish(simulator, client, process)
        return sample
    }

    /// Write requests spent on a slider burst (25 updates in 0.5 s to one light) and on a 10-light change.
    func burstCost() async throws -> (slider: Int, sliderFinal: Bool, tenLights: Int) {
        let simulator = LIFXCloudSimulator.generated(count: 10, groups: 1, token: "bench-token")
        let base = "bench_burst"
        let (client, process) = try await start(simulator, base: base, count: 10)
        simulator.clearRequests()
        for step in 1...25 {
            client.client.publish("\(base)/lifx_d073d5000001/set", payload: Array("{\"state\":\"ON\",\"brightness\":\(step * 10)}".utf8), qos: 1, retain: false)
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .seconds(2))
        let sliderWrites = simulator.requests().filter { $0.method == "PUT" }
        let final = (simulator.light(id: "d073d5000001")?.brightness ?? 0) > 0.97
        simulator.clearRequests()
        for light in 1...10 {
            let id = String(format: "d073d5%06x", light)
            client.client.publish("\(base)/lifx_\(id)/set", payload: Array("{\"state\":\"ON\",\"color\":{\"h\":200,\"s\":50}}".utf8), qos: 1, retain: false)
        }
        try await Task.sleep(for: .seconds(2))
        let tenWrites = simulator.requests().filter { $0.method == "PUT" }.count
        try await finish(simulator, client, process)
        return (sliderWrites.count, final, tenWrites)
    }

    /// Resident memory of the daemon holding `count` simulated lights, once idle.
    func memory(lights count: Int) async throws -> Double {
        let simulator = LIFXCloudSimulator.generated(count: count, groups: 10, token: "bench-token")
        let base = "bench_rss"
        let (client, process) = try await start(simulator, base: base, count: count)
        try await Task.sleep(for: settleBeforeRSS)
        let rss = residentMiB(pid: process.child.pid) ?? .nan
        try await finish(simulator, client, process)
        return rss
    }
}
