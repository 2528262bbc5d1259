import Foundation

/// Percentiles of a sample of durations, printed in milliseconds.
struct LatencySample {
    var values: [Double] = []

    mutating func add(_ duration: Duration) {
        values.append(Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
    }

    mutating func add(milliseconds: Double) { values.append(milliseconds) }

    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var summary: String {
        String(format: "p50 %.2f ms  p99 %.2f ms  (n=%d)", percentile(50), percentile(99), values.count)
    }

    /// What this sample adds to a broker echo measured beside it, at p50 and p99.
    func added(over echo: LatencySample) -> String {
        String(
            format: "adds p50 %+.2f ms, p99 %+.2f ms over the echo", percentile(50) - echo.percentile(50),
            percentile(99) - echo.percentile(99))
    }
}

/// How long a daemon is left alone before its resident memory is read: longer than its heap trim interval
/// (10 s), so the figure is the steady state and not wherever the last burst left glibc's arenas.
let settleBeforeRSS: Duration = .seconds(11)

/// Resident memory of a process in MiB, from /proc.
func residentMiB(pid: Int32) -> Double? { statusMiB(pid: pid, field: "VmRSS:") }

/// Resident memory split as the kernel counts it: anonymous pages (the heap, stacks) and file-backed ones (the
/// binary's and libraries' pages that are mapped, which the kernel can drop and read again).
struct Resident: CustomStringConvertible {
    var total: Double, anonymous: Double, file: Double

    /// Reads `/proc/<pid>/status`.
    init?(pid: Int32) {
        guard let total = statusMiB(pid: pid, field: "VmRSS:"), let anonymous = statusMiB(pid: pid, field: "RssAnon:"),
            let file = statusMiB(pid: pid, field: "RssFile:")
        else { return nil }
        (self.total, self.anonymous, self.file) = (total, anonymous, file)
    }

    var description: String { String(format: "%.1f MiB (anonymous %.1f, file-backed %.1f)", total, anonymous, file) }
}

/// Peak resident memory of a process in MiB (`VmHWM`), since it started or since `resetPeakResident`.
func peakResidentMiB(pid: Int32) -> Double? { statusMiB(pid: pid, field: "VmHWM:") }

/// A memory line of `/proc/<pid>/status` (in kB there) in MiB.
private func statusMiB(pid: Int32, field: String) -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
        let kb = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kb / 1024
}

/// Restarts a process's peak resident memory from its current size (Linux `clear_refs` 5), so the peak that
/// follows is the burst's and not the start-up's; without the right to do so the peak is the lifetime's.
func resetPeakResident(pid: Int32) {
    try? "5".write(toFile: "/proc/\(pid)/clear_refs", atomically: false, encoding: .utf8)
}
