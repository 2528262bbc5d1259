/// Which new passive sensors appear without a permit window. Anyone in radio range can forge sensor adverts from
/// random addresses, and each admitted one becomes a device with entities, so new ones come through a token
/// bucket and up to a ceiling; past either only the permit window (or a rule, the config, the remembered set)
/// lets a device in. Refusals are told once, then at most once per `noticeInterval`, never once per advert.
/// A pure value stepped with the instants its owner passes in.
public struct PassiveAdmission: Sendable, Equatable {
    /// Why a passive device was refused.
    public enum Refusal: String, Sendable, Hashable {
        /// The bucket is empty: too many new devices lately.
        case rate
        /// `ble.max_passive_devices` devices were admitted as passive sensors.
        case limit
    }

    /// What to tell about refusals: the reason of the latest and how many there were since the last notice.
    public struct Notice: Sendable, Equatable {
        public var refusal: Refusal
        public var refused: Int

        /// A notice of `refused` refusals, the latest for `refusal`.
        public init(refusal: Refusal, refused: Int) {
            self.refusal = refusal
            self.refused = refused
        }
    }

    /// The most passive devices admitted at once.
    public let maxDevices: Int
    /// The least time between two notices.
    public let noticeInterval: Duration
    private var bucket: TokenBucket
    /// Passive devices admitted and still kept.
    public private(set) var admitted = 0
    /// When the permit window closes; nil when it is closed.
    public private(set) var permitUntil: ContinuousClock.Instant?
    private var noticedAt: ContinuousClock.Instant?
    private var refusedSinceNotice = 0

    /// `burst` new devices at once, then `perMinute` a minute, up to `maxDevices`.
    public init(burst: Int = 50, perMinute: Int = 10, maxDevices: Int = 256, noticeInterval: Duration = .seconds(300)) {
        bucket = TokenBucket(capacity: burst, perMinute: perMinute)
        self.maxDevices = max(maxDevices, 0)
        self.noticeInterval = noticeInterval
    }

    /// Opens the permit window until `now + duration`, or closes it for a duration of zero or less.
    public mutating func permit(for duration: Duration, at now: ContinuousClock.Instant) {
        permitUntil = duration > .zero ? now + duration : nil
    }

    /// Whether the permit window is open at `now`.
    public func permitting(at now: ContinuousClock.Instant) -> Bool { permitUntil.map { now < $0 } ?? false }

    /// The answer for one new passive device.
    public enum Verdict: Sendable, Equatable {
        case admitted
        /// Refused, with the notice to give if one is due.
        case refused(Notice?)
    }

    /// Admits a new passive device (counted until `release()`), or refuses it, with a notice when one is due.
    public mutating func admit(at now: ContinuousClock.Instant) -> Verdict {
        let refusal: Refusal
        if admitted >= maxDevices {
            refusal = .limit
        } else if bucket.take(at: now) {
            admitted += 1
            return .admitted
        } else {
            refusal = .rate
        }
        refusedSinceNotice += 1
        guard noticedAt.map({ now - $0 >= noticeInterval }) ?? true else { return .refused(nil) }
        noticedAt = now
        defer { refusedSinceNotice = 0 }
        return .refused(Notice(refusal: refusal, refused: refusedSinceNotice))
    }

    /// A passive device admitted earlier is gone (removed): its place is free again.
    public mutating func release() { admitted = max(admitted - 1, 0) }
}
