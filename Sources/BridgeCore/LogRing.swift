public import Logging
import Synchronization

/// One log line as the ring holds it: the text the log handler wrote, cut to the ring's line length.
public struct LogRecord: Sendable, Equatable {
    /// Seconds since 1970.
    public var time: Double
    public var level: Logger.Level
    /// The logger's label (`bridge`, `ble`, `mqtt`…).
    public var namespace: String
    /// The message with its metadata, as the journal gets it.
    public var message: String

    /// Creates a record.
    public init(time: Double, level: Logger.Level, namespace: String, message: String) {
        self.time = time
        self.level = level
        self.namespace = namespace
        self.message = message
    }
}

/// The process's recent log lines, for `bridge/logging` and the web page. Bounded everywhere: the ring keeps the
/// last `capacity` lines, each cut to `lineLimit` characters, and the lines still to be published wait in a
/// queue of `pendingLimit`; past that they are counted as dropped rather than queued. Appending only takes a
/// lock and rings a bell, so a log handler on any thread can call it.
public final class LogRing: Sendable {
    private struct State {
        var records: [LogRecord] = []
        var next = 0
        var pending: [LogRecord] = []
        var dropped = 0
        var droppedTotal = 0
    }

    /// Lines held.
    public let capacity: Int
    /// Characters kept of one line.
    public let lineLimit: Int
    /// Lines that may wait to be published.
    public let pendingLimit: Int
    private let state = Mutex(State())
    private let bell: AsyncStream<Void>.Continuation
    /// Rings after each append while lines wait to be published; for the one task that publishes them.
    public let appended: AsyncStream<Void>

    /// Creates an empty ring.
    public init(capacity: Int = 1000, lineLimit: Int = 2000, pendingLimit: Int = 200) {
        self.capacity = max(1, capacity)
        self.lineLimit = max(16, lineLimit)
        self.pendingLimit = max(1, pendingLimit)
        (appended, bell) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Keeps a line (cut to `lineLimit`) and queues it for publishing, or counts it dropped when the queue is full.
    public func append(_ record: LogRecord) {
        var record = record
        if record.message.count > lineLimit { record.message = String(record.message.prefix(lineLimit - 1)) + "…" }
        state.withLock { state in
            if state.records.count < capacity {
                state.records.append(record)
            } else {
                state.records[state.next] = record
            }
            state.next = (state.next + 1) % capacity
            if state.pending.count < pendingLimit {
                state.pending.append(record)
            } else {
                state.dropped += 1
                state.droppedTotal += 1
            }
        }
        bell.yield()
    }

    /// The lines held, oldest first.
    public var records: [LogRecord] {
        state.withLock { state in
            guard state.records.count == capacity else { return state.records }
            return Array(state.records[state.next...] + state.records[..<state.next])
        }
    }

    /// Takes up to `limit` lines waiting to be published, and how many were dropped since the last take.
    public func takePending(limit: Int) -> (records: [LogRecord], dropped: Int) {
        state.withLock { state in
            let taken = Array(state.pending.prefix(limit))
            state.pending.removeFirst(taken.count)
            let dropped = state.dropped
            state.dropped = 0
            return (taken, dropped)
        }
    }

    /// Lines that were never published because too many came at once, since start.
    public var droppedCount: Int { state.withLock { $0.droppedTotal } }
}
