import BridgeCore
import Foundation
import Testing
import TestSupport

@Suite("SIGTERM always ends with offline and DISCONNECT", .tags(.integration, .process), .timeLimit(.minutes(3)), .needs(.broker))
struct CleanStopTests {
    @Test("ten stops in a row, some in the middle of a command flood: the broker never sends the will")
    func tenStops() async throws {
        let broker = try await Broker.start()
        let flooder = try await TestClient.connect(to: broker)
        let clientID = "t2m-clean-stop"
        let config = TestConfig.yaml(port: broker.port, logLevel: "debug", mqttLines: ["client_id: \(clientID)"])
        var logs: [String] = []
        for round in 1...10 {
            let bridge = try BridgeProcess.start(config: config)
            try await bridge.waitUntilReady(on: broker)
            try await broker.waitForRetained("t2m/bridge/state", equals: ["state": "online"])
            if round.isMultiple(of: 2) {
                for index in 0..<2_000 { flooder.publish("t2m/nobody_\(index % 50)/set", #"{"state":"ON"}"#, qos: 0) }
            }
            let status = try await bridge.terminate()
            #expect(status == 0, "round \(round): exit status \(status)\n\(bridge.stderr.suffix(2_000))")
            #expect(try await broker.retainedJSON("t2m/bridge/state") == ["state": "offline"])
            logs.append("round \(round):\n" + bridge.stderr.split(separator: "\n").suffix(6).joined(separator: "\n"))
        }
        try await flooder.sync()
        // mosquitto flushes its log file line by line, but only as it gets to it.
        let disconnected = "Client \(clientID) disconnected."
        try? await waitUntil("ten disconnects in the broker log", timeout: .seconds(10)) {
            broker.log.components(separatedBy: disconnected).count - 1 >= 10
        }
        let log = broker.log
        let lines = log.split(separator: "\n").filter { $0.contains(clientID) }.joined(separator: "\n")
        #expect(log.components(separatedBy: disconnected).count - 1 == 10, "\(lines)\n\(logs.joined(separator: "\n"))")
        #expect(!log.contains("Client \(clientID) closed its connection"))
        #expect(!log.contains("Socket error on client \(clientID)"))
        await flooder.close()
    }
}
