public import BridgeCore
import Foundation
public import Logging
import Synchronization

/// Writes `time LEVEL [component] message key=value…` lines to stderr, at the level the shared control sets.
/// Under systemd (JOURNAL_STREAM set) each line starts with a `<N>` priority so journald files it correctly.
public struct StderrLogHandler: LogHandler {
    let label: String
    let control: LogLevelControl
    /// Metadata attached to every line.
    public var metadata: Logger.Metadata = [:]
    private static let journald = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil
    private static let lock = Mutex(())

    /// Creates a handler for one logger label.
    public init(label: String, control: LogLevelControl) {
        self.label = label
        self.control = control
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

    /// Writes one line.
    public func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { _, new in new } }
        let rendered = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let prefix = Self.journald ? "<\(priority(event.level))>" : Self.timestamp() + " "
        let line = "\(prefix)\(event.level.rawValue.uppercased()) [\(label)] \(event.message)"
            + (rendered.isEmpty ? "" : " " + rendered) + "\n"
        Self.lock.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) }
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

    private static func timestamp() -> String {
        Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
    }
}
