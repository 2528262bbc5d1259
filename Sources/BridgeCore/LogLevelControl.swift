public import Logging
import Synchronization

/// The process-wide log level, shared by the log handler and the `options` request that changes it at run time.
public final class LogLevelControl: Sendable {
    private let level: Mutex<Logger.Level>

    /// Creates the control with a starting level.
    public init(_ level: Logger.Level) { self.level = Mutex(level) }

    /// The level in force.
    public var current: Logger.Level {
        get { level.withLock { $0 } }
        set { level.withLock { $0 = newValue } }
    }
}
