public import BridgeCore
import FoundationEssentials
import Support
public import Logging
import Synchronization

/// Writes `time LEVEL [component] message key=value…` lines to stderr, at the level the shared control sets.
/// Under systemd (JOURNAL_STREAM set) each line starts with a `<N>` priority so journald files it correctly.
/// With a ring, each line also goes there (for `bridge/logging` and the web page): one handler, so the level
/// the control sets at run time holds for both (a multiplexing handler would keep the level it started with).
public struct StderrLogHandler: LogHandler {
    let label: String
    let control: LogLevelControl
    let ring: LogRing?
    /// Metadata attached to every line.
    public var metadata: Logger.Metadata = [:]
    private static let journald = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil
    private static let lock = Mutex(())

    /// Creates a handler for one logger label; `ring` keeps the recent lines, if given.
    public init(label: String, control: LogLevelControl, ring: LogRing? = nil) {
        self.label = label
        self.control = control
        self.ring = ring
    }

    /// The shared level.
    public var logLevel: Logger.Level {
        get { control.current }
        set { control.current = newValue }
    }

    /// One metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line, and keeps it in the ring: the same text, so the ring holds nothing the journal does not
    /// (a `Secret` renders as `***` in both).
    public func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { _, new in new } }
        let rendered = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let text = "\(event.message)" + (rendered.isEmpty ? "" : " " + rendered)
        let now = Date()
        let prefix = Self.journald ? "<\(priority(event.level))>" : Self.timestamp(now) + " "
        let line = "\(prefix)\(event.level.rawValue.uppercased()) [\(label)] \(text)\n"
        Self.lock.withLock { _ in StandardError.write(line) }
        ring?.append(LogRecord(time: now.timeIntervalSince1970, level: event.level, namespace: label, message: text))
    }

    private func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
    }
}
