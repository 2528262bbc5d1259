import BridgeCore
import Foundation
import Harness

/// Advert ingest under sustained load with the default config: the C sender paces pvvx adverts from 1,000
/// thermometers at a fixed rate for a minute, with a probe every 250 ms (a BTHome button press, or a new
/// temperature of one of ten probe thermometers). Taken once by the bare C receiver and once by the daemon,
/// each alone on a fresh bus; the daemon's CPU is compared with the bare receiver's on the same feed, and each
/// probe is timed from the sender's write to its message at an MQTT client (both on CLOCK_MONOTONIC).
struct SustainedIngest {
    let broker: Broker
    let tools: BareC
    let rate: Int
    let seconds: Int
    static let devices = 1_000
    /// Not timed: the devices appear (the permit window admits them as they advertise) and settle.
    static let warmUp = Duration.seconds(10)

    /// One rate's figures; CPU in seconds per second of feed, latencies in milliseconds.
    struct Figures {
        var senderRateBare = 0.0, senderRateDaemon = 0.0
        var bareCPU = 0.0, daemonCPU = 0.0
        var button = LatencySample(), buttonMissing = 0
        var value = LatencySample(), valueMissing = 0
        var dropped = 0
        var rss = 0.0, rssPeak = 0.0
        /// The daemon's CPU by thread name, in seconds per second of feed, the busiest first.
        var threads: [(name: String, cpu: Double)] = []

        /// The daemon's CPU as a multiple of the bare receiver's.
        var cpuRatio: Double { daemonCPU / bareCPU }
    }

    /// Both runs.
    func run() async throws -> Figures {
        var figures = Figures()
        try await bare(into: &figures)
        try await daemon(into: &figures)
        return figures
    }

    private func sender(on bus: DBusDaemon, log: String) async throws -> ChildProcess {
        try await tools.start(tools.sender, [bus.address, "\(Self.devices)", "paced", "\(rate)", "\(seconds)"], log: log)
    }

    private func bare(into figures: inout Figures) async throws {
        let bus = try await DBusDaemon.start()
        let sender = try await sender(on: bus, log: "paced-bare-\(rate)")
        let receiver = try await tools.start(tools.receiver, [bus.address, "\(rate * seconds)"], log: "receiver-paced-\(rate)")
        sender.signal(SIGUSR1)
        let timeout = Duration.seconds(seconds + 60)
        let received = try await BareC.line("received", of: receiver, timeout: timeout)
        let sent = try await BareC.line("sent", of: sender, timeout: timeout)
        sender.signal(SIGKILL)
        guard sent.count == 3, received.count == 3 else { throw BenchError("unexpected C output: \(sent) \(received)") }
        let span = Double(sent[2] - sent[1]) / 1e9
        figures.senderRateBare = Double(sent[0]) / span
        figures.bareCPU = Double(received[2]) / 1e9 / span
    }

    private func daemon(into figures: inout Figures) async throws {
        let base = "bench_sustained"
        let bus = try await DBusDaemon.start()
        let sender = try await sender(on: bus, log: "paced-daemon-\(rate)")
        let config = TestConfig.yaml(port: broker.port, base: base, logLevel: "warning", extra: "ble:\n  enabled: true\n")
        let process = try BridgeProcess.start(config: config, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        try await process.waitUntilReady(on: broker, base: base)
        let client = try await TestClient.connect(to: broker)
        // As a user adds sensors: a permit window, so all of them appear with the default admission settings.
        _ = try await client.request("ble/permit", json: ["time": 600], base: base)
        try await client.subscribe("\(base)/+", qos: 0)
        try await client.subscribe("\(base)/+/event", qos: 0)
        sender.signal(SIGUSR1)
        try await waitUntil("\(Self.devices + 1) devices published", timeout: .seconds(60), every: .milliseconds(200)) {
            guard case .array(let list)? = try await broker.retainedJSON("\(base)/bridge/devices") else { return false }
            return list.count >= Self.devices + 1
        }
        try await Task.sleep(for: Self.warmUp)
        let pid = process.child.pid
        let from = monotonicNanoseconds()
        let ticks = CPUTime.ticks(pid: pid)
        let threads = CPUTime.threadTicks(pid: pid)
        resetPeakResident(pid: pid)
        let sent = try await BareC.line("sent", of: sender, timeout: .seconds(seconds + 60))
        let until = monotonicNanoseconds()
        let perSecond = { (ticks: Int) in Double(ticks) / CPUTime.ticksPerSecond / (Double(until - from) / 1e9) }
        if let before = ticks, let after = CPUTime.ticks(pid: pid) { figures.daemonCPU = perSecond(after - before) }
        figures.threads = CPUTime.threadTicks(pid: pid).map { ($0.key, perSecond($0.value - (threads[$0.key] ?? 0))) }
            .filter { $0.cpu > 0 }.sorted { $0.cpu > $1.cpu }
        figures.rss = residentMiB(pid: pid) ?? .nan
        figures.rssPeak = peakResidentMiB(pid: pid) ?? .nan
        guard sent.count == 3 else { throw BenchError("unexpected sender output: \(sent)") }
        figures.senderRateDaemon = Double(sent[0]) / (Double(sent[2] - sent[1]) / 1e9)
        // The last probes' messages: a value may wait a period.
        try await Task.sleep(for: .seconds(1))
        timeProbes(sender.stdout, client: client, base: base, after: from, into: &figures)
        figures.dropped = AdvertIngest.droppedSignals(in: process.stderr)
        await client.close()
        _ = try await process.terminate()
        sender.signal(SIGKILL)
    }

    /// Each probe written after `after`, matched with the first message that shows it.
    private func timeProbes(_ output: String, client: TestClient, base: String, after: Int64, into figures: inout Figures) {
        let button = "\(base)/ble_a4c1380003e8/event"
        var events = client.messages(on: button).map(\.monotonic)
        for line in output.split(separator: "\n") where line.hasPrefix("probe ") {
            let fields = line.split(separator: " ")
            guard fields.count >= 4, let written = Int64(fields[3]), written >= after else { continue }
            if fields[1] == "b" {
                // Presses are 500 ms apart: the first event after the write and before the next press is this one's.
                if let index = events.firstIndex(where: { $0 >= written && $0 < written + 500_000_000 }) {
                    figures.button.add(milliseconds: Double(events[index] - written) / 1e6)
                    events.removeSubrange(...index)
                } else {
                    figures.buttonMissing += 1
                }
            } else if fields.count == 6, let index = Int(fields[4]), let centidegrees = Int(fields[5]) {
                let topic = "\(base)/ble_a4c13800\(Self.octet(index >> 8))\(Self.octet(index & 0xFF))"
                let shown = client.messages(on: topic).first {
                    $0.monotonic >= written && $0.json?["temperature"] == .number(Double(centidegrees) / 100)
                }
                if let shown { figures.value.add(milliseconds: Double(shown.monotonic - written) / 1e6) } else { figures.valueMissing += 1 }
            }
        }
    }

    /// A byte as two lowercase hex digits.
    private static func octet(_ value: Int) -> String {
        let text = String(value, radix: 16)
        return text.count == 1 ? "0" + text : text
    }
}
