import ArgumentParser
import Foundation
import Logging
import TestSupport

/// Prints the performance figures of things2mqtt: `swift build -c release && .build/release/things2mqtt-bench`.
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "things2mqtt-bench", abstract: "Measure things2mqtt.")

    @Option(help: "Latency samples per measurement.")
    var samples = 200

    @Option(help: "Simulated LIFX lights for the memory figure.")
    var lights = 1000

    func run() async throws {
        LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
        let broker = try await Broker.start()
        print("things2mqtt benchmark (mosquitto on 127.0.0.1:\(broker.port), daemon \(try BridgeProcess.binaryPath()))")
        let spine = SpineBench(broker: broker)
        let rtt = try await spine.brokerRoundTrip(samples: samples)
        print("broker round trip (publish → receive, QoS 1):   \(rtt.summary)")
        let dispatch = try await spine.setToDispatch(samples: samples)
        print("/set → driver dispatch (in-process bridge):     \(dispatch.summary)")
        let (startup, idle) = try await spine.startup(runs: 5, idleSeconds: 5)
        print("start → retained bridge/state online:           \(startup.summary)")
        print(String(format: "idle RSS, no devices:                           %.1f MiB", idle))
        let lifx = LIFXBench(broker: broker)
        let request = try await lifx.setToRequest(samples: min(samples, 40))
        print("LIFX /set → request at the simulator:           \(request.summary)")
        let burst = try await lifx.burstCost()
        print("LIFX slider burst (25 updates in 0.5 s):        \(burst.slider) write requests, final value applied: \(burst.sliderFinal)")
        print("LIFX 10 lights changed at once:                 \(burst.tenLights) write request(s)")
        let rss = try await lifx.memory(lights: lights)
        print(String(format: "RSS with %d simulated LIFX lights:            %.1f MiB", lights, rss))
    }
}
