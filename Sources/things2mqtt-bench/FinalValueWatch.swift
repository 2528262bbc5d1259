import BridgeCore
import Foundation
import Logging
import Mosquitto
import Synchronization
import Harness

/// An MQTT client on every device state topic under a base topic, noting when each topic first carries its
/// final value (`key` equal to `final`), on CLOCK_MONOTONIC like the C programs, so the daemon is timed to
/// the moment its last device's last value is out.
final class FinalValueWatch: Sendable {
    /// What arrived: when each topic first carried its final value, and how many states came in all.
    private final class Store: Sendable {
        struct State {
            var finals: [String: Int64] = [:]
            var published = 0
        }
        let state = Mutex(State())
    }

    let client: MosquittoClient
    private let store = Store()

    /// Connects and subscribes to `base/+` (the device states; retained copies are not counted).
    init(port: Int, base: String, key: String, final: Double) async throws {
        let store = store
        let prefix = base + "/"
        // Only payloads holding the final number's digits are parsed, so the watch takes little of the CPU
        // the daemon and the broker share with it.
        let digits = Array(String(Int(final)).utf8)
        client = try MosquittoClient(
            options: MosquittoOptions(host: "127.0.0.1", port: port, clientID: "bench-final-" + UUID().uuidString.prefix(8)),
            logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }),
            deliver: { event in
                guard case .message(let message) = event, !message.retained, message.topic.hasPrefix(prefix) else { return }
                let isFinal =
                    message.payload.firstRange(of: digits) != nil && JSONValue.parse(message.payload)?[key] == .number(final)
                let now = monotonicNanoseconds()
                store.state.withLock { state in
                    state.published += 1
                    if isFinal, state.finals[message.topic] == nil { state.finals[message.topic] = now }
                }
            })
        client.start()
        let deadline = ContinuousClock.now + .seconds(10)
        while !client.isConnected {
            guard ContinuousClock.now < deadline else { throw BenchError("the final-value watch could not connect") }
            try await Task.sleep(for: .milliseconds(10))
        }
        client.subscribe(base + "/+", qos: 0)
        try await Task.sleep(for: .milliseconds(300))
    }

    /// Waits until `topics` topics carried their final value; returns when the last of them did.
    func waitForFinals(_ topics: Int, timeout: Duration) async throws -> Int64 {
        try await waitForValue("final values on \(topics) topics", timeout: timeout, every: .milliseconds(2)) {
            store.state.withLock { $0.finals.count >= topics ? $0.finals.values.max() : nil }
        }
    }

    /// State messages received so far (not retained).
    var published: Int { store.state.withLock { $0.published } }

    /// Disconnects.
    func close() async {
        await client.shutdown()
    }
}
