import BridgeCore
import EV3Protocol
import EV3Simulator
import Foundation
import Harness
import Support

/// EV3 figures from an external MQTT client against the release daemon and two simulated bricks over TCP:
/// `/set` → frame at the brick next to the same client's broker echo, stop latency while the link's queue is
/// full, the daemon's memory with two bricks, and how many polls it keeps up at its shortest interval.
struct EV3Bench {
    let broker: Broker
    let base = "bench_ev3"
    static let serials = ["0016533f0c1e", "0016533f0c2f"]

    struct Figures {
        var echo = LatencySample()
        var setToFrame = LatencySample()
        var stopWhileFull = LatencySample()
        /// LED requests that reached the brick after the stop, per sample: how far the stop jumped.
        var jumped: [Int] = []
        var rss = 0.0
    }

    /// The daemon on two simulated bricks; returns the bricks, the daemon and a connected client.
    func start(pollInterval: String) async throws -> ([EV3BrickSimulator], BridgeProcess, BenchClient) {
        var bricks: [EV3BrickSimulator] = []
        var entries = ""
        for serial in Self.serials {
            var setup = EV3SimulatorSetup()
            setup.serialNumber = serial
            let brick = EV3BrickSimulator(setup: setup)
            entries += "    - wifi: 127.0.0.1:\(try brick.startWiFi(port: 0))\n"
            bricks.append(brick)
        }
        let ev3 = "ev3:\n  enabled: true\n  poll_interval: \(pollInterval)\n  discovery: {wifi: false, usb: false}\n  bricks:\n"
        let process = try BridgeProcess.start(
            config: TestConfig.yaml(port: broker.port, base: base, logLevel: "warning", extra: ev3 + entries))
        try await process.waitUntilReady(on: broker, base: base)
        for serial in Self.serials {
            try await waitUntil("brick \(serial) ready", timeout: .seconds(30)) {
                let state = try await broker.retainedJSON("\(base)/ev3_\(serial)")
                return state?["status"] == "ready" && state?["motor_a"]?["position"] != nil
            }
        }
        let client = try BenchClient(port: broker.port)
        try await client.connect()
        client.client.subscribe("bench/echo", qos: 1)
        try await Task.sleep(for: .milliseconds(300))
        return (bricks, process, client)
    }

    /// `/set` → frame and the echo, interleaved; then stop latency behind a full queue; then memory.
    func run(samples: Int) async throws -> Figures {
        let (bricks, process, client) = try await start(pollInterval: "500ms")
        let topic = "\(base)/ev3_\(Self.serials[0])/set"
        var figures = Figures()
        for index in -10..<samples {
            let echo = try await ExternalBench(broker: broker).echo(client, qos: 1, tag: "ev3 \(index)")
            let speed = 10 + (index + 10) % 80
            let frame = try await setToFrame(client, bricks[0], topic, #"{"motor_a": {"speed": \#(speed)}}"#) {
                Array($0.dropFirst(7).prefix(3)) == [0xA5, 0x00, 0x01]
            }
            if index >= 0 {
                figures.echo.add(echo)
                figures.setToFrame.add(frame.latency)
            }
        }
        _ = try await setToFrame(client, bricks[0], topic, #"{"stop": true}"#) { Array($0.dropFirst(7)) == [0xA3, 0x00, 0x0F, 0x00] }
        // A brick that takes 10 ms per command (as USB ones do), 31 LED changes queued: stop goes next.
        bricks[0].setFault(.delay(.milliseconds(10)))
        for index in -3..<max(samples / 4, 10) {
            let (latency, behind) = try await stopBehindQueue(client, bricks[0], topic)
            if index >= 0 {
                figures.stopWhileFull.add(latency)
                figures.jumped.append(behind)
            }
        }
        bricks[0].setFault(.none)
        try await Task.sleep(for: settleBeforeRSS)
        figures.rss = residentMiB(pid: process.child.pid) ?? .nan
        await client.close()
        _ = try await process.terminate()
        for brick in bricks { brick.stop() }
        return figures
    }

    /// Publishes `payload` and waits for the first frame after it that `matches`; returns when it arrived.
    private func setToFrame(
        _ client: BenchClient, _ brick: EV3BrickSimulator, _ topic: String, _ payload: String,
        matches: @escaping ([UInt8]) -> Bool
    ) async throws -> (latency: Duration, index: Int) {
        let from = brick.frameArrivals().count
        let sent = ContinuousClock.now
        client.client.publish(topic, payload: Array(payload.utf8), qos: 1, retain: false)
        let deadline = sent + .seconds(10)
        while ContinuousClock.now < deadline {
            let arrivals = brick.frameArrivals(from: from)
            if let hit = arrivals.firstIndex(where: { matches($0.frame) }) { return (arrivals[hit].at - sent, from + hit) }
            try await Task.sleep(for: .microseconds(100))
        }
        throw BenchError("no frame at the brick for \(payload)")
    }

    /// Queues LED changes behind a slow brick, sends a stop, and times it; returns its latency and how many LED
    /// frames arrived after it.
    private func stopBehindQueue(
        _ client: BenchClient, _ brick: EV3BrickSimulator, _ topic: String
    ) async throws -> (Duration, Int) {
        brick.clearFrames()
        let isLED: ([UInt8]) -> Bool = { $0.count > 8 && $0[7] == 0x82 && $0[8] == 0x1B }
        for index in 0..<31 {
            // Two topics, so that neither has more waiting at the bridge than it keeps.
            let pattern = ["green", "red", "orange"][index % 3]
            if index.isMultiple(of: 2) {
                client.client.publish(topic, payload: Array(#"{"led": "\#(pattern)"}"#.utf8), qos: 1, retain: false)
            } else {
                client.client.publish(topic + "/led", payload: Array(pattern.utf8), qos: 1, retain: false)
            }
        }
        try await waitUntil("LED changes reaching the brick", timeout: .seconds(10), every: .microseconds(200)) {
            brick.receivedFrames().filter(isLED).count >= 3
        }
        let (latency, index) = try await setToFrame(client, brick, topic, #"{"stop": true}"#) {
            Array($0.dropFirst(7)) == [0xA3, 0x00, 0x0F, 0x00]
        }
        try await waitUntil("the queue drained", timeout: .seconds(20), every: .milliseconds(5)) {
            brick.receivedFrames().filter(isLED).count >= 31
        }
        return (latency, brick.receivedFrames().dropFirst(index + 1).filter(isLED).count)
    }

    /// Polls each brick completes per second with `poll_interval: 100ms`, the shortest the config takes.
    func pollRate(seconds: Int) async throws -> [Double] {
        let (bricks, process, client) = try await start(pollInterval: "100ms")
        let counts = bricks.map { $0.receivedFrames().count }
        let started = ContinuousClock.now
        try await Task.sleep(for: .seconds(seconds))
        let elapsed = (ContinuousClock.now - started).inSeconds
        let rates = zip(bricks, counts).map { brick, count in
            Double(brick.receivedFrames().dropFirst(count).filter { $0.count > 8 && $0[7] == 0x81 && $0[8] == 0x12 }.count) / elapsed
        }
        await client.close()
        _ = try await process.terminate()
        for brick in bricks { brick.stop() }
        return rates
    }
}
