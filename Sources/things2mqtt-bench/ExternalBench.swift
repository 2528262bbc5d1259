import BridgeCore
import Foundation
import LIFXSimulator
import Harness

/// What users feel, measured from an external MQTT client (its own process, TCP_NODELAY) against the release
/// daemon, each figure next to a broker-only echo from the same client in the same run.
struct ExternalBench {
    let broker: Broker
    let base = "bench_ext"
    let light = "lifx_d073d5000001"

    /// Round-trip figures, interleaved sample by sample so the echo and the bridge see the same conditions.
    struct RoundTrips {
        var echo0 = LatencySample(), echo1 = LatencySample()
        var request0 = LatencySample(), request1 = LatencySample()
        var setToState = LatencySample()
    }

    /// The daemon with the simulated LIFX demo account behind it, and a connected client.
    func withDaemon<T>(_ body: (BenchClient, BridgeProcess) async throws -> T) async throws -> T {
        let simulator = LIFXCloudSimulator.demo(token: "bench-token")
        let lifx = LIFXBench(broker: broker)
        let (client, process) = try await lifx.start(simulator, base: base, count: 5)
        client.client.subscribe("bench/echo", qos: 1)
        client.client.subscribe("\(base)/bridge/response/#", qos: 1)
        client.client.subscribe("\(base)/\(light)", qos: 1)
        try await Task.sleep(for: .milliseconds(300))
        do {
            let result = try await body(client, process)
            try await lifx.finish(simulator, client, process)
            return result
        } catch {
            try? await lifx.finish(simulator, client, process)
            throw error
        }
    }

    /// Broker echo (QoS 0 and 1), health_check request → response (QoS 0 and 1), `/set` → optimistic state.
    func roundTrips(_ client: BenchClient, samples: Int) async throws -> RoundTrips {
        var result = RoundTrips()
        for index in -20..<samples {
            let keep = index >= 0
            for qos in [0, 1] {
                let echo = try await echo(client, qos: qos, tag: "\(index)")
                let request = try await request(client, qos: qos, transaction: index * 2 + qos)
                if keep, qos == 0 { result.echo0.add(echo); result.request0.add(request) }
                if keep, qos == 1 { result.echo1.add(echo); result.request1.add(request) }
            }
            let state = try await setToState(client, brightness: 10 + ((index + 20) * 7) % 240)
            if keep { result.setToState.add(state) }
        }
        return result
    }

    func echo(_ client: BenchClient, qos: Int, tag: String) async throws -> Duration {
        let mark = client.count
        let payload = Array("echo \(tag) \(qos)".utf8)
        let sent = ContinuousClock.now
        client.client.publish("bench/echo", payload: payload, qos: qos, retain: false)
        return try await client.waitFor(after: mark, what: "the echo") { $0.topic == "bench/echo" && $0.payload == payload }.at - sent
    }

    func request(_ client: BenchClient, qos: Int, transaction: Int) async throws -> Duration {
        let mark = client.count
        let marker = "\"transaction\":\(transaction)"
        let sent = ContinuousClock.now
        client.client.publish(
            "\(base)/bridge/request/health_check", payload: Array("{\(marker)}".utf8), qos: qos, retain: false)
        return try await client.waitFor(after: mark, what: "health_check response \(transaction)") {
            $0.topic == "\(base)/bridge/response/health_check" && String(decoding: $0.payload, as: UTF8.self).contains(marker)
        }.at - sent
    }

    func setToState(_ client: BenchClient, brightness: Int) async throws -> Duration {
        let mark = client.count
        let sent = ContinuousClock.now
        client.client.publish(
            "\(base)/\(light)/set", payload: Array("{\"state\":\"ON\",\"brightness\":\(brightness)}".utf8), qos: 1, retain: false)
        return try await client.waitFor(after: mark, what: "state with brightness \(brightness)") {
            $0.topic == "\(base)/\(light)" && JSONValue.parse($0.payload)?["brightness"] == .number(Double(brightness))
        }.at - sent
    }

    /// The daemon's count of broker messages refused at its inbox, from `health_check`. Asked again every 5 s, for a
    /// minute: right after a burst the inbox may still be full, and then it refuses the request too.
    func refusedSoFar(_ client: BenchClient) async throws -> Int {
        for _ in 1...12 {
            let mark = client.count
            client.client.publish(
                "\(base)/bridge/request/health_check", payload: Array("{\"transaction\":\"refused\"}".utf8), qos: 1, retain: false)
            if let response = try? await client.waitFor(after: mark, timeout: .seconds(5), what: "the health_check response", {
                $0.topic == "\(base)/bridge/response/health_check" && String(decoding: $0.payload, as: UTF8.self).contains("\"refused\"")
            }) {
                return Int(JSONValue.parse(response.payload)?["data"]?["refused_messages"]?.doubleValue ?? -1)
            }
        }
        throw BenchError("no health_check response in a minute")
    }
}
