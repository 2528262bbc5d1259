import Foundation

/// CPU time a process has used, from `/proc/<pid>/stat`; nil where there is no `/proc`.
public enum CPUTime {
    /// Clock ticks per second.
    public static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// `utime + stime` in clock ticks.
    public static func ticks(pid: Int32) -> Int? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        // The command name (field 2) is in parentheses and may hold spaces; count fields after it.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3), so utime (field 14) is fields[11] and stime fields[12].
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }
}
