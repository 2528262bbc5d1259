/// Where the cloud's rate-limit reset falls on this host's clock.
public enum RateReset {
    /// `X-RateLimit-Reset` (epoch seconds by the cloud's clock) as epoch seconds by the host's clock.
    ///
    /// The response's own `Date` says how far away the reset is; that distance is counted from
    /// `receivedAt`, when the response arrived by the host's clock, so a host clock that is ahead of or
    /// behind the cloud's does not matter. Without a readable `Date`, the reset is taken as it stands.
    public static func onHostClock(reset: String?, date: String?, receivedAt: Double) -> Double? {
        guard let reset = reset.flatMap({ Double($0) }), reset.isFinite else { return nil }
        guard let serverNow = date.flatMap(HTTPDate.parse) else { return reset }
        return receivedAt + (reset - serverNow)
    }
}
