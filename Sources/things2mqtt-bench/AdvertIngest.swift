import BridgeCore
import Foundation
import Harness

/// Advert ingest: a burst of BlueZ-shaped `PropertiesChanged` signals for 100 devices from the C sender (which
/// owns `org.bluez` and lists the devices itself), taken once by the bare C receiver and once by the daemon,
/// each alone on a fresh bus. The daemon's figure ends when every device's final value is published.
struct AdvertIngest {
    /// What the adverts carry.
    enum Kind: String {
        /// RSSI only, for devices a `ble.connect` rule admits.
        case rssi
        /// RSSI and pvvx thermometer service data, for passive sensors.
        case pvvx
        /// RSSI and encrypted MiBeacon v5 temperatures, decrypted with each device's bindkey.
        case mibeacon
    }

    let broker: Broker
    let tools: BareC
    let kind: Kind
    static let devices = 100

    /// The figures of one burst size; rates in signals per second, CPU in seconds per 1,000 signals.
    struct Figures {
        var count = 0
        var senderForBare = 0.0, senderForDaemon = 0.0
        var bare = 0.0, daemon = 0.0
        /// Milliseconds from the sender's last signal to the bare receiver's last one, and to the daemon's last
        /// final value at the watching client: the fixed part of each side's time, which a short burst feels most.
        var bareTail = 0.0, daemonTail = 0.0
        var bareCPU = 0.0, daemonCPU = 0.0
        /// The daemon's D-Bus thread alone (the work the bare receiver does, plus reading each body), and its
        /// MQTT thread.
        var dbusThreadCPU = Double.nan, mqttThreadCPU = Double.nan
        var rssBefore = 0.0, rssPeak = 0.0, rssAfter = 0.0
        var published = 0
        /// Signals the daemon's mailbox dropped, as far as its log says (the total is logged at most every 10 s,
        /// so more may have gone since); 0 if it logged none.
        var dropped = 0

        /// The daemon's rate as a percentage of the bare receiver's.
        var ratio: Double { daemon / bare * 100 }
    }

    /// Both runs of a burst of `count` signals.
    func run(count: Int) async throws -> Figures {
        var figures = Figures(count: count)
        try await bare(count: count, into: &figures)
        try await daemon(count: count, into: &figures)
        return figures
    }

    private func sender(on bus: DBusDaemon, count: Int) async throws -> ChildProcess {
        try await tools.start(
            tools.sender, [bus.address, "\(Self.devices)", "\(count)", kind.rawValue], log: "sender-\(kind)-\(count)")
    }

    private func bare(count: Int, into figures: inout Figures) async throws {
        let bus = try await DBusDaemon.start()
        let sender = try await sender(on: bus, count: count)
        let receiver = try await tools.start(tools.receiver, [bus.address, "\(count)"], log: "receiver-\(kind)-\(count)")
        sender.signal(SIGUSR1)
        let received = try await BareC.line("received", of: receiver)
        let sent = try await BareC.line("sent", of: sender)
        sender.signal(SIGKILL)
        guard sent.count == 3, received.count == 3 else { throw BenchError("unexpected C output: \(sent) \(received)") }
        figures.senderForBare = Double(count) / seconds(sent[2] - sent[1])
        figures.bare = Double(count) / seconds(received[1] - sent[1])
        figures.bareTail = seconds(received[1] - sent[2]) * 1000
        figures.bareCPU = seconds(received[2]) / Double(count) * 1000
    }

    private func daemon(count: Int, into figures: inout Figures) async throws {
        let base = "bench_ingest_\(kind)"
        let bus = try await DBusDaemon.start()
        let sender = try await sender(on: bus, count: count)
        // RSSI alone is published at most once per rssi_interval, so that case needs it at 0s; the thermometers
        // publish on every new temperature with the defaults.
        // The thermometers appear as passive sensors, all at once: more than the default burst lets in.
        var ble = kind == .rssi ? "  rssi_interval: 0s\n  connect:\n    - match: {name: \"Bench *\"}\n      policy: never\n" : "  passive_burst: 1000\n"
        // The sender's devices are A4:C1:38:00:hh:ll, all sealed with one key.
        if kind == .mibeacon {
            ble += "  bindkeys:\n"
            for index in 0..<Self.devices {
                ble += "    \"A4:C1:38:00:\(Self.octet(index >> 8)):\(Self.octet(index & 0xFF))\": 00112233445566778899aabbccddeeff\n"
            }
        }
        let config = TestConfig.yaml(
            port: broker.port, base: base, logLevel: "warning", extra: "ble:\n  enabled: true\n" + ble)
        let process = try BridgeProcess.start(config: config, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        try await process.waitUntilReady(on: broker, base: base)
        try await waitUntil("\(Self.devices) devices published", timeout: .seconds(60), every: .milliseconds(100)) {
            guard case .array(let list)? = try await broker.retainedJSON("\(base)/bridge/devices") else { return false }
            return list.count >= Self.devices
        }
        let watch = try await FinalValueWatch(
            port: broker.port, base: base, key: kind == .rssi ? "rssi" : "temperature", final: kind == .rssi ? -40 : 40)
        let pid = process.child.pid
        try await Task.sleep(for: .seconds(1))
        figures.rssBefore = residentMiB(pid: pid) ?? .nan
        resetPeakResident(pid: pid)
        let ticks = CPUTime.ticks(pid: pid)
        let threads = CPUTime.threadTicks(pid: pid)
        sender.signal(SIGUSR1)
        let done = try await watch.waitForFinals(Self.devices, timeout: .seconds(300))
        let perThousand = { (ticks: Int) in Double(ticks) / CPUTime.ticksPerSecond / Double(count) * 1000 }
        if let before = ticks, let after = CPUTime.ticks(pid: pid) { figures.daemonCPU = perThousand(after - before) }
        let threadsAfter = CPUTime.threadTicks(pid: pid)
        for (name, into) in [("dbus", \Figures.dbusThreadCPU), ("mosquitto", \Figures.mqttThreadCPU)] {
            if let before = threads[name], let after = threadsAfter[name] { figures[keyPath: into] = perThousand(after - before) }
        }
        figures.rssPeak = peakResidentMiB(pid: pid) ?? .nan
        let sent = try await BareC.line("sent", of: sender)
        guard sent.count == 3 else { throw BenchError("unexpected sender output: \(sent)") }
        figures.senderForDaemon = Double(count) / seconds(sent[2] - sent[1])
        figures.daemon = Double(count) / seconds(done - sent[1])
        figures.daemonTail = seconds(done - sent[2]) * 1000
        figures.published = watch.published
        figures.dropped = Self.droppedSignals(in: process.stderr)
        await watch.close()
        try await Task.sleep(for: settleBeforeRSS)
        figures.rssAfter = residentMiB(pid: pid) ?? .nan
        _ = try await process.terminate()
        sender.signal(SIGKILL)
    }

    private func seconds(_ nanoseconds: Int64) -> Double { Double(nanoseconds) / 1e9 }

    /// The last running total of dropped signals in the daemon's log.
    static func droppedSignals(in log: String) -> Int {
        let lines = log.split(separator: "\n").filter { $0.contains("BlueZ signals dropped") }
        guard let last = lines.last, let range = last.range(of: "total=") else { return 0 }
        return Int(last[range.upperBound...].prefix { $0.isNumber }) ?? -1
    }

    /// A byte as two uppercase hex digits.
    private static func octet(_ value: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return text.count == 1 ? "0" + text : text
    }
}
