#if canImport(Glibc)
import Glibc
#endif

/// The wall clock, as seconds since 1970 (UTC), passed in rather than read where it is needed: code that
/// compares its time with a server's (a rate limit's reset) then runs in tests on a clock the test sets.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Double

    /// A clock that reads `read`.
    public init(_ read: @escaping @Sendable () -> Double) { self.read = read }

    /// Seconds since 1970 now.
    public var now: Double { read() }

    /// The system's real-time clock.
    public static let system = WallClock {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
