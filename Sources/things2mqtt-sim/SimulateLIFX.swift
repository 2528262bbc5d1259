import ArgumentParser
import Foundation
import LIFXSimulator
import Logging

/// `things2mqtt-sim`: the device simulators the demo, the tests and the benchmark run, kept out of the daemon.
@main
struct Things2MQTTSim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "things2mqtt-sim", abstract: "Run a device simulator.", subcommands: [SimulateLIFX.self, SimulateEV3.self])
}

/// `things2mqtt-sim lifx`: a LIFX cloud on this machine, speaking the real HTTP API.
struct SimulateLIFX: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifx", abstract: "Serve the LIFX HTTP API with simulated lights (demo: 5 lights, 2 groups, 1 scene).")

    @Option(help: "TCP port (0 picks a free one).")
    var port = 8080

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The bearer token clients must send.")
    var token = "demo-token"

    @Option(help: "Serve this many generated lights instead of the demo set.")
    var lights: Int?

    @Option(help: "Requests allowed per token per 60 s, as the real cloud's 120.")
    var rateLimit = 120

    @Option(help: "Delay before every answer, in milliseconds (the real cloud takes hundreds).")
    var latency = 0

    @Option(help: "Lights (by id) that answer offline, e.g. --offline d073d5000004.")
    var offline: [String] = []

    @Option(help: "Seconds the cloud's clock (Date and X-RateLimit-Reset headers) is ahead of this host's, e.g. --clock-offset=-30.")
    var clockOffset = 0

    func run() async throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let simulator =
            lights.map { LIFXCloudSimulator.generated(count: $0, token: token, rateLimit: rateLimit) }
            ?? LIFXCloudSimulator.demo(token: token, rateLimit: rateLimit)
        if latency > 0 { simulator.setLatency(.milliseconds(latency)) }
        if clockOffset != 0 { simulator.setClockOffset(.seconds(clockOffset)) }
        for id in offline { simulator.updateLight(id: id) { $0.connected = false } }
        let bound = try await simulator.start(host: host, port: port)
        FileHandle.standardOutput.write(Data("LIFX cloud simulator listening on http://\(host):\(bound)/v1 (token: \(token))\n".utf8))
        while !Task.isCancelled {
            try await Task.sleep(for: .seconds(3600))
        }
    }
}
