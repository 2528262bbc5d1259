/// Keeps floods readable: per kind and source, the first few occurrences in a window pass, the rest are
/// counted and come back as one summary when the window ends. Time is passed in, so tests set the clock.
public struct RepeatSummarizer: Sendable {
    /// What repeats (e.g. `refused commands`) and where from (an alias, a topic).
    public struct Key: Hashable, Sendable {
        public var kind: String
        public var source: String

        /// Creates a key.
        public init(kind: String, source: String) {
            self.kind = kind
            self.source = source
        }
    }

    /// Occurrences held back during one window.
    public struct Summary: Equatable, Sendable {
        public var key: Key
        public var suppressed: Int
        public var window: Duration

        /// Creates a summary.
        public init(key: Key, suppressed: Int, window: Duration) {
            self.key = key
            self.suppressed = suppressed
            self.window = window
        }
    }

    private struct Window {
        var start: ContinuousClock.Instant
        var lines = 0
        var suppressed = 0
    }

    /// How long one window lasts.
    public let window: Duration
    /// Occurrences let through per window.
    public let burst: Int
    /// Sources tracked one by one; beyond this, new sources share one key per kind, so a flood of random
    /// topics costs bounded memory.
    public let maxKeys: Int
    private var windows: [Key: Window] = [:]
    private var ready: [Summary] = []
    private var readySince: ContinuousClock.Instant?

    /// Creates a summarizer: ten a source per ten seconds is more than a person sends by hand.
    public init(window: Duration = .seconds(10), burst: Int = 10, maxKeys: Int = 1024) {
        self.window = window
        self.burst = burst
        self.maxKeys = maxKeys
    }

    /// The source that stands for every source once `maxKeys` are tracked.
    public static let otherSources = "other sources"

    /// Counts `count` occurrences reported together (one line); returns `count` if that line may be written
    /// now, or 0 if the window already had its `burst` of lines and the occurrences go into the summary.
    public mutating func admit(
        _ key: Key, count: Int = 1, burst: Int? = nil, at now: ContinuousClock.Instant
    ) -> Int {
        var key = key
        if windows[key] == nil, windows.count >= maxKeys { key.source = Self.otherSources }
        let burst = burst ?? self.burst
        var current = windows[key] ?? Window(start: now)
        if now - current.start >= window {
            if current.suppressed > 0 {
                ready.append(Summary(key: key, suppressed: current.suppressed, window: window))
                readySince = readySince ?? now
            }
            current = Window(start: now)
        }
        defer { windows[key] = current }
        guard current.lines < burst else {
            current.suppressed += count
            return 0
        }
        current.lines += 1
        return count
    }

    /// Summaries of windows that ended by `now`, oldest key first; forgets quiet windows.
    public mutating func due(at now: ContinuousClock.Instant) -> [Summary] {
        var result = ready
        ready = []
        readySince = nil
        for (key, current) in windows where now - current.start >= window {
            if current.suppressed > 0 { result.append(Summary(key: key, suppressed: current.suppressed, window: window)) }
            windows[key] = nil
        }
        return result.sorted { ($0.key.kind, $0.key.source) < ($1.key.kind, $1.key.source) }
    }

    /// When the next summary falls due, if anything is being held back.
    public var nextDue: ContinuousClock.Instant? {
        let pending = windows.values.filter { $0.suppressed > 0 }.map { $0.start + window }
        return readySince ?? pending.min()
    }
}
