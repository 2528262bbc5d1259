import BridgeCore
import Foundation
import Logging
import Mosquitto
import Synchronization

/// An MQTT client that timestamps every delivery the moment the network thread hands it over.
final class BenchClient: Sendable {
    struct Delivery: Sendable {
        var topic: String
        var payload: [UInt8]
        var at: ContinuousClock.Instant
        var retained: Bool
    }

    let client: MosquittoClient

    init(port: Int) throws {
        let sink = DeliverySink()
        client = try MosquittoClient(
            options: MosquittoOptions(host: "127.0.0.1", port: port, clientID: "bench-" + UUID().uuidString.prefix(8)),
            logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }),
            deliver: { event in
                if case .message(let message) = event {
                    sink.add(Delivery(topic: message.topic, payload: message.payload, at: .now, retained: message.retained))
                }
            })
        self.sink = sink
        client.start()
    }

    let sink: DeliverySink

    func connect() async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !client.isConnected {
            guard ContinuousClock.now < deadline else { throw BenchError("bench client could not connect") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits (polling every 0.2 ms) for the first delivery after `index` that matches.
    func waitFor(
        after index: Int, timeout: Duration = .seconds(10), what: String = "a message", _ match: (Delivery) -> Bool
    ) async throws -> Delivery {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let hit = sink.all.dropFirst(index).first(where: match) { return hit }
            try await Task.sleep(for: .microseconds(200))
        }
        throw BenchError("timed out waiting for \(what)")
    }

    var count: Int { sink.all.count }

    func close() async {
        await client.shutdown()
    }
}

/// Thread-safe list of deliveries.
final class DeliverySink: Sendable {
    private let store = Mutex<[BenchClient.Delivery]>([])
    func add(_ delivery: BenchClient.Delivery) { store.withLock { $0.append(delivery) } }
    var all: [BenchClient.Delivery] { store.withLock { $0 } }
}

/// A benchmark step that could not complete.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
