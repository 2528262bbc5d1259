import DBus
import Foundation
import TestSupport
import Support

/// One burst of adverts from one device, timed twice in the same run: until a bare libdbus receiver on the
/// bus has all of them, and until the daemon has published the burst's last value; with the daemon's CPU
/// time over the burst.
struct BurstTiming {
    var bareSeconds = 0.0
    var bridgeSeconds = 0.0
    var cpuPerThousand = 0.0

    /// Sends the burst with `send` and waits for `published` to hold.
    static func measure(
        bus address: String, device path: String, count: Int, daemon pid: Int32, what: String,
        send: () async throws -> Void, published: () async throws -> Bool
    ) async throws -> BurstTiming {
        let receiver = try await DBusConnection.connect(to: DBusAddress(address))
        do {
            let timing = try await measure(
                receiver, path, count: count, daemon: pid, what: what, send: send, published: published)
            await receiver.close()
            return timing
        } catch {
            await receiver.close()
            throw error
        }
    }

    private static func measure(
        _ receiver: DBusConnection, _ path: String, count: Int, daemon pid: Int32, what: String,
        send: () async throws -> Void, published: () async throws -> Bool
    ) async throws -> BurstTiming {
        let signals = try await receiver.subscribe(
            DBusMatchRule(sender: "org.bluez", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", path: path))
        let counted = Task {
            var seen = 0
            for await _ in signals {
                seen += 1
                if seen == count { break }
            }
            return ContinuousClock.now
        }
        var timing = BurstTiming()
        let ticks = CPUTime.ticks(pid: pid)
        let start = ContinuousClock.now
        try await send()
        let bareDone = await counted.value
        try await waitUntil(what, timeout: .seconds(120), every: .milliseconds(5), published)
        let bridgeDone = ContinuousClock.now
        if let before = ticks, let after = CPUTime.ticks(pid: pid) {
            timing.cpuPerThousand = Double(after - before) / CPUTime.ticksPerSecond / Double(count) * 1000
        }
        timing.bareSeconds = (bareDone - start).inSeconds
        timing.bridgeSeconds = (bridgeDone - start).inSeconds
        return timing
    }
}
