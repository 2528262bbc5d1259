import BridgeCore
import Foundation
import Harness
import Support

/// Hostile input against the running daemon: a mix of payloads no client should send, on device, unknown
/// and request topics.
struct HostileMix {
    let base: String
    let payloads: [[UInt8]]
    let topics: [String]

    init(base: String) {
        self.base = base
        var junk = SystemRandomNumberGenerator()
        payloads = [
            Array((String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)).utf8),
            Array(#"{"brightness":1e999999}"#.utf8),
            Array(("{\"brightness\":" + String(repeating: "9", count: 400) + "}").utf8),
            Array(("{\"effect\":\"" + String(repeating: "A", count: 60_000) + "\"}").utf8),
            Array(#"{"state":"ON","effect":""#.utf8) + [0xc3, 0x28, 0xff, 0xfe] + Array(#""}"#.utf8),
            (0..<256).map { _ in UInt8.random(in: 0...255, using: &junk) },
        ]
        topics = [
            "\(base)/lifx_d073d5000002/set", "\(base)/nobody/set", "\(base)/bridge/request/device/rename",
            "\(base)/lifx_d073d5000003/set/brightness",
        ]
    }

    /// The `index`th message of the mix.
    func message(_ index: Int) -> (topic: String, payload: [UInt8]) {
        (topics[index % topics.count], payloads[(index / topics.count) % payloads.count])
    }
}

extension ExternalBench {
    /// Hostile messages as fast as the client can send them: how long the daemon takes to get through them
    /// (until it answers a health_check sent after the last one), how many it refused, and its RSS around it.
    func hostileBurst(_ client: BenchClient, process: BridgeProcess, count: Int) async throws
        -> (seconds: Double, refused: Int, rssBefore: Double, rssAfter: Double)
    {
        let mix = HostileMix(base: base)
        let refusedBefore = try await refusedSoFar(client)
        let rssBefore = residentMiB(pid: process.child.pid) ?? .nan
        let start = ContinuousClock.now
        for index in 0..<count {
            let (topic, payload) = mix.message(index)
            client.client.publish(topic, payload: payload, qos: 0, retain: false)
        }
        let refused = try await refusedSoFar(client) - refusedBefore
        let elapsed = ContinuousClock.now - start
        try await Task.sleep(for: .seconds(2))
        let rssAfter = residentMiB(pid: process.child.pid) ?? .nan
        return (elapsed.inSeconds, refused, rssBefore, rssAfter)
    }

    /// Hostile messages paced at `rate` per second for `duration`, while a legitimate `/set` to another light
    /// is timed to its optimistic state: the hostile sender must not slow the other device down.
    func hostilePaced(_ client: BenchClient, rate: Int, duration: Duration) async throws
        -> (sent: Int, refused: Int, legit: LatencySample)
    {
        let mix = HostileMix(base: base)
        let refusedBefore = try await refusedSoFar(client)
        let start = ContinuousClock.now
        let publisher = client.client
        let total = Int(Double(rate) * duration.inSeconds)
        // The hostile sender is a child task: a failure of the timed /set below cancels it rather than leaving it
        // publishing.
        let legit = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<total {
                    let due = start + .nanoseconds(Int64(index) * 1_000_000_000 / Int64(rate))
                    if due > .now { try await Task.sleep(until: due, clock: .continuous) }
                    let (topic, payload) = mix.message(index)
                    publisher.publish(topic, payload: payload, qos: 0, retain: false)
                }
            }
            var legit = LatencySample()
            var step = 0
            while ContinuousClock.now < start + duration {
                legit.add(try await setToState(client, brightness: 10 + (step * 7) % 240))
                step += 1
                try await Task.sleep(for: .milliseconds(20))
            }
            try await group.waitForAll()
            return legit
        }
        let refused = try await refusedSoFar(client) - refusedBefore
        return (total, refused, legit)
    }

}
