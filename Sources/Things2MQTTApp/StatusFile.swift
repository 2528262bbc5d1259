import FoundationEssentials
import Support

/// A one-word file the daemon keeps with the state of its broker connection (`connected`, `connecting`,
/// `stopped`), rewritten at least every `refresh` while the bridge's queue turns; `things2mqtt health` reads
/// it, so a container's HEALTHCHECK needs no broker client and no credentials of its own.
public struct StatusFile: Sendable {
    /// What the file says.
    public enum State: String, Sendable {
        /// The broker has accepted the connection.
        case connected
        /// Not connected; the client is trying (at start-up, or after the broker went away).
        case connecting
        /// The daemon has shut down.
        case stopped
    }

    /// What `things2mqtt health` concludes.
    public enum Verdict: Equatable, Sendable {
        /// Connected, and the file is fresh.
        case healthy
        /// Anything else, with the reason.
        case unhealthy(String)
    }

    /// The file's path.
    public let path: String

    /// The path given, else `THINGS2MQTT_STATUS_FILE` from `environment` (by default this process's); nil when
    /// neither is set.
    public init?(path: String?, environment: [String: String]? = nil) {
        let environment = environment ?? ProcessInfo.processInfo.environment
        guard let chosen = path ?? environment["THINGS2MQTT_STATUS_FILE"], !chosen.isEmpty else { return nil }
        self.path = chosen
    }

    /// Replaces the file in one step, so a reader never sees it half written.
    func write(_ state: State) throws {
        try Data((state.rawValue + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Healthy only if the file says `connected` and was written within `maxAge` (a hung daemon stops
    /// refreshing it).
    public func verdict(maxAge: Duration) -> Verdict {
        guard let data = FileManager.default.contents(atPath: path),
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let modified = attributes[.modificationDate] as? Date
        else { return .unhealthy("no status file at \(path); is the bridge running with this --status-file?") }
        let word = String(decoding: data, as: UTF8.self).trimmingWhitespace()
        let age = Date().timeIntervalSince(modified)
        guard let state = State(rawValue: word) else { return .unhealthy("unreadable status \"\(word.prefix(40))\" in \(path)") }
        if Duration.seconds(age) > maxAge {
            return .unhealthy("status file not updated for \(Int(age)) s (the bridge is not responding)")
        }
        switch state {
        case .connected: return .healthy
        case .connecting: return .unhealthy("not connected to the MQTT broker")
        case .stopped: return .unhealthy("the bridge has stopped")
        }
    }
}
