/// The cluster's timings (the `cluster` section's durations), as `Duration`s.
public struct ClusterTimings: Sendable, Equatable {
    public var renewal: Duration
    public var claimTimeout: Duration
    public var observation: Duration
    public var handoverWindow: Duration
    public var awayAfter: Duration

    /// Creates timings; the defaults are the section's.
    public init(
        renewal: Duration = .seconds(10), claimTimeout: Duration = .seconds(30), observation: Duration = .seconds(2),
        handoverWindow: Duration = .seconds(2), awayAfter: Duration = .seconds(60)
    ) {
        self.renewal = renewal
        self.claimTimeout = claimTimeout
        self.observation = observation
        self.handoverWindow = handoverWindow
        self.awayAfter = awayAfter
    }

    /// Observations older than this are dropped (10 s at the default 2 s interval).
    public var observationLife: Duration { observation * 5 }
    /// How long a device first heard waits before anyone claims it: every bridge shares its first reading at
    /// once and its average an interval later, so the ranks rest on that second round, not on one stray advert.
    public var firstClaim: Duration { observation * 2 }
    /// How long each rank waits before claiming an unclaimed device, so the best bridge claims first.
    public var rankDelay: Duration { observation / 4 }
    /// How often the cluster looks at its devices.
    public var tick: Duration { observation / 8 }
    /// How late a peer's presence (said every renewal with authenticated messages) may be before its will counts.
    public static let presenceGrace = Duration.seconds(1)
    /// How often a bridge whose probe has not come back sends it again.
    public static let probeRetry = Duration.seconds(1)
    /// A challenger needs this lead over the owner, for `leadWindows` hand-over windows in a row.
    public static let lead = 10.0
    /// The extra lead a bridge needs for a device it lost within `relapse`.
    public static let relapseLead = 6.0
    public static let relapse = Duration.seconds(300)
    public static let leadWindows = 3
    /// A bridge with no free connection slot scores this much lower for a device it would have to connect.
    public static let slotPenalty = 20.0
    /// A bridge whose connects of a device failed `repeatedFailures` times in a row scores this much lower for it.
    public static let failurePenalty = 20.0
    public static let repeatedFailures = 3
}
