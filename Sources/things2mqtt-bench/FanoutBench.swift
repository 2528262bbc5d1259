import BridgeCore
import Foundation
import Glibc
import Synchronization
import Support
import Harness

/// The web frontend's fan-out: pages connected to the daemon's `api` websocket while 100 lights change state
/// 10 times a second, the `/set` → state round trip of another light measured from an external MQTT client
/// next to that client's broker echo, and a page that stalled, with the daemon's memory.
struct FanoutBench {
    let broker: Broker
    let base = "bench_web"

    struct Figures {
        var echo = LatencySample()
        var setToState = LatencySample()
        var frames: [Int] = []
        var rssBefore = Double.nan, rssPeak = Double.nan, rssAfter = Double.nan
        var stalledClosed = false
        /// The `/set` messages a second the load generator sent (its target: lights × rate).
        var loadRate = Double.nan
        /// The daemon's CPU time under the load, as a share of one core.
        var cpuShare = Double.nan
    }

    /// Ten lights beside the loaded ones take the measured commands in turn, so the per-light write pacing
    /// (which holds a light's next command while its write is pending) stays out of the figure.
    static func probes(loaded: Int) -> [String] { (1...10).map { String(format: "lifx_d073d5%06x", loaded + $0) } }

    func run(pages: Int, loaded: Int, rate: Int, samples: Int) async throws -> Figures {
        let probes = Self.probes(loaded: loaded)
        // The cloud runs in a process of its own, so the pages this process hosts do not slow its answers.
        let simulator = try await SimulatorProcess.lifx(lights: loaded + probes.count, token: "bench-token")
        let port = try LocalPorts.free()
        let yaml = TestConfig.yaml(
            port: broker.port, base: base, logLevel: "warning",
            extra: "lifx:\n  enabled: true\n  token: bench-token\n  api_url: \(simulator.baseURL)\n  poll_interval: 30s\n"
                + "frontend:\n  enabled: true\n  port: \(port)\n")
        let client = try BenchClient(port: broker.port)
        try await client.connect()
        client.client.subscribe("\(base)/bridge/devices", qos: 1)
        let process = try BridgeProcess.start(config: yaml)
        _ = try await client.waitFor(after: 0, timeout: .seconds(120)) { delivery in
            guard delivery.topic == "\(base)/bridge/devices", case .array(let list)? = try? JSONValue.parse(delivery.payload, limits: LIFXBench.devicesLimits)
            else { return false }
            return list.count >= loaded + probes.count
        }
        client.client.subscribe("bench/echo", qos: 1)
        for probe in probes { client.client.subscribe("\(base)/\(probe)", qos: 1) }
        let stalled = try RawWebSocketClient(port: port, receiveBuffer: 4096)
        try await stalled.handshake(first: #"{"auth":""}"#)
        let readers = try await PageReaders.connect(pages: pages, port: port)
        defer { readers.stop() }
        let rssBefore = residentMiB(pid: process.child.pid) ?? .nan
        resetPeakResident(pid: process.child.pid)
        var figures = try await measure(client, probes: probes, loaded: loaded, rate: rate, samples: samples, pid: process.child.pid)
        figures.rssBefore = rssBefore
        figures.frames = readers.frames
        figures.stalledClosed = (try? await stalled.drainUntilClosed(timeout: .seconds(10))) != nil
        try await Task.sleep(for: .seconds(2))
        figures.rssAfter = residentMiB(pid: process.child.pid) ?? .nan
        _ = try await process.terminate()
        simulator.stop()
        await client.close()
        return figures
    }

    /// The same load and probes answered by the bare C responder instead of the daemon (no pages, no cloud):
    /// the two passes through the broker that any bridge's round trip takes, with the least code between them.
    func runBare(loaded: Int, rate: Int, samples: Int) async throws -> Figures {
        let tools = try await BareC.build()
        defer { tools.directory.remove() }
        let responder = try await tools.start(tools.responder, ["127.0.0.1", "\(broker.port)", base, "1"], log: "responder")
        defer { responder.signal(SIGKILL) }
        let client = try BenchClient(port: broker.port)
        try await client.connect()
        let probes = Self.probes(loaded: loaded)
        client.client.subscribe("bench/echo", qos: 1)
        for probe in probes { client.client.subscribe("\(base)/\(probe)", qos: 1) }
        resetPeakResident(pid: responder.pid)
        let figures = try await measure(client, probes: probes, loaded: loaded, rate: rate, samples: samples, pid: responder.pid)
        await client.close()
        return figures
    }

    /// Sends the load (`loaded` lights × `rate` `/set` a second, in ticks of 10 ms) and, under it, measures the
    /// client's broker echo and the `/set` → state round trip of the probes in turn; with the responder's CPU
    /// share and peak memory over the same time.
    private func measure(
        _ client: BenchClient, probes: [String], loaded: Int, rate: Int, samples: Int, pid: pid_t
    ) async throws -> Figures {
        let base = base
        let broker = broker
        return try await withThrowingTaskGroup(of: Void.self, returning: Figures.self) { group in
            var figures = Figures()
            let sentChanges = Mutex(0)
            let loadStart = ContinuousClock.now
            let ticksBefore = CPUTime.ticks(pid: pid)
            group.addTask {
                let perTick = max(1, loaded * rate / 100)
                var step = 0
                while !Task.isCancelled {
                    for _ in 0..<perTick {
                        let light = String(format: "lifx_d073d5%06x", step % loaded + 1)
                        client.client.publish(
                            "\(base)/\(light)/set", payload: Array("{\"brightness\":\(1 + step / loaded % 254)}".utf8), qos: 0,
                            retain: false)
                        step += 1
                    }
                    sentChanges.withLock { $0 = step }
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
            try await Task.sleep(for: .seconds(2))
            // Each probe starts at brightness 5, below every measured value, so the first measured command
            // changes the state (a command that changes nothing may publish nothing).
            for probe in probes {
                client.client.publish("\(base)/\(probe)/set", payload: Array("{\"state\":\"ON\",\"brightness\":5}".utf8), qos: 1, retain: false)
                _ = try await client.waitFor(after: 0, what: "the probe's first state") {
                    guard $0.topic == "\(base)/\(probe)", let value = JSONValue.parse($0.payload)?["brightness"]?.doubleValue else { return false }
                    return abs(value - 5) <= 2
                }
            }
            let external = ExternalBench(broker: broker)
            for index in 0..<samples {
                figures.echo.add(try await external.echo(client, qos: 1, tag: "fanout \(index)"))
                let brightness = 10 + index % 240
                let probe = probes[index % probes.count]
                let mark = client.count
                let sent = ContinuousClock.now
                client.client.publish(
                    "\(base)/\(probe)/set", payload: Array("{\"state\":\"ON\",\"brightness\":\(brightness)}".utf8), qos: 1, retain: false)
                // The cloud keeps brightness in hundredths, so the state may round the value sent by a step.
                let state = try await client.waitFor(after: mark, what: "the probe's state") {
                    guard $0.topic == "\(base)/\(probe)", let value = JSONValue.parse($0.payload)?["brightness"]?.doubleValue else { return false }
                    return abs(value - Double(brightness)) <= 2
                }
                figures.setToState.add(state.at - sent)
            }
            figures.rssPeak = peakResidentMiB(pid: pid) ?? .nan
            let loadSeconds = (ContinuousClock.now - loadStart).inSeconds
            figures.loadRate = Double(sentChanges.withLock { $0 }) / loadSeconds
            if let before = ticksBefore, let after = CPUTime.ticks(pid: pid) {
                figures.cpuShare = Double(after - before) / CPUTime.ticksPerSecond / loadSeconds
            }
            group.cancelAll()
            return figures
        }
    }
}
