import Foundation

/// CPU time a process has used, from `/proc/<pid>/stat`; nil where there is no `/proc`.
public enum CPUTime {
    /// Clock ticks per second.
    public static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// `utime + stime` in clock ticks.
    public static func ticks(pid: Int32) -> Int? { ticks(statFile: "/proc/\(pid)/stat")?.ticks }

    /// `utime + stime` in clock ticks of each of a process's threads, summed by thread name (`dbus`,
    /// `mosquitto`); empty where there is no `/proc`.
    public static func threadTicks(pid: Int32) -> [String: Int] {
        let tasks = "/proc/\(pid)/task"
        var byName: [String: Int] = [:]
        for task in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let thread = ticks(statFile: "\(tasks)/\(task)/stat") else { continue }
            byName[thread.name, default: 0] += thread.ticks
        }
        return byName
    }

    /// The name and `utime + stime` of a `stat` file.
    private static func ticks(statFile path: String) -> (name: String, ticks: Int)? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        // The command name (field 2) is in parentheses and may hold spaces; count fields after it.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3), so utime (field 14) is fields[11] and stime fields[12].
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]),
            let open = text.firstIndex(of: "(")
        else { return nil }
        return (String(text[text.index(after: open)..<close]), user + system)
    }
}
