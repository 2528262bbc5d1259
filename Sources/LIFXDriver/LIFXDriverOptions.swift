public import Support

/// Pacing of the LIFX driver.
public struct LIFXDriverOptions: Sendable {
    /// How often all lights are listed.
    public var pollInterval: Duration
    /// How long the writer waits after the first pending command, so commands sent together (a scene in
    /// Home Assistant) leave as one batch.
    public var gatherWindow: Duration
    /// Minimum spacing of writes, so a dragged slider costs a few requests and ends at the last value.
    public var minWriteInterval: Duration
    /// Scenes are re-listed every this many polls.
    public var sceneRefreshPolls: Int
    /// After a 401, the token is tried again only after this long.
    public var unauthorizedRetry: Duration
    /// Attempts at a write that keeps failing with 5xx or timeouts before it is given up.
    public var maxAttempts: Int
    /// How long a light's write may wait before the light shows `busy`: a quick write is one state message.
    public var busyAfter: Duration
    /// The clock the rate budget reads: the cloud's limits reset at wall-clock times.
    public var clock: WallClock

    /// Creates options; the defaults suit the cloud's 120 requests a minute.
    public init(
        pollInterval: Duration = .seconds(30), gatherWindow: Duration = .milliseconds(30),
        minWriteInterval: Duration = .milliseconds(300), sceneRefreshPolls: Int = 10,
        unauthorizedRetry: Duration = .seconds(300), maxAttempts: Int = 5, busyAfter: Duration = .seconds(1),
        clock: WallClock = .system
    ) {
        self.clock = clock
        self.pollInterval = pollInterval
        self.gatherWindow = gatherWindow
        self.minWriteInterval = minWriteInterval
        self.sceneRefreshPolls = sceneRefreshPolls
        self.unauthorizedRetry = unauthorizedRetry
        self.maxAttempts = maxAttempts
        self.busyAfter = busyAfter
    }
}
