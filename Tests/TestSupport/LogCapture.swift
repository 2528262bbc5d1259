public import Logging
import Synchronization

/// Keeps log lines in memory so tests can read what a component logged.
public final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    /// Creates an empty capture.
    public init() {}

    /// Every line so far, as `LEVEL [label] message key=value…`.
    public var all: [String] { lines.withLock { $0 } }

    /// A logger writing into this capture at `level`.
    public func logger(_ label: String, level: Logger.Level = .debug) -> Logger {
        var logger = Logger(label: label) { label in CapturingLogHandler(label: label, capture: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }
}

/// A log handler that appends to a `LogCapture`.
struct CapturingLogHandler: LogHandler {
    let label: String
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let rendered = fields.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        capture.append("\(event.level.rawValue.uppercased()) [\(label)] \(event.message)\(rendered)")
    }
}
