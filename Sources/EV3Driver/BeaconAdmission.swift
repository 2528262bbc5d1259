import BridgeCore

/// Which bricks heard only by their WiFi beacon are connected. Anyone on the LAN can send a beacon (UDP, no
/// secret), and each one admitted becomes a device the bridge connects to, so a beacon admits a brick only when
/// its serial number is configured (listed under `devices:` or in `ev3.bricks`) or while the permit window
/// (`ev3/permit`) is open. Refusals are told once, then at most once per `noticeInterval`, never once per
/// beacon. A pure value stepped with the instants its owner passes in.
struct BeaconAdmission: Sendable, Equatable {
    /// The answer for one beacon of a brick not known yet.
    enum Verdict: Sendable, Equatable {
        case admitted
        /// Refused; with how many were refused since the last notice when a notice is due.
        case refused(notice: Int?)
    }

    /// The bricks a beacon may always bring in.
    let configured: Set<DeviceID>
    /// The least time between two notices.
    let noticeInterval: Duration
    /// When the permit window closes; nil when it is closed.
    private(set) var permitUntil: ContinuousClock.Instant?
    private var noticedAt: ContinuousClock.Instant?
    private var refusedSinceNotice = 0

    /// Admits the `configured` serial numbers, and others only in a permit window.
    init(configured: Set<DeviceID>, noticeInterval: Duration = .seconds(300)) {
        self.configured = configured
        self.noticeInterval = noticeInterval
    }

    /// Opens the permit window until `now + duration`, or closes it for a duration of zero or less.
    mutating func permit(for duration: Duration, at now: ContinuousClock.Instant) {
        permitUntil = duration > .zero ? now + duration : nil
    }

    /// Whether the permit window is open at `now`.
    func permitting(at now: ContinuousClock.Instant) -> Bool { permitUntil.map { now < $0 } ?? false }

    /// Whether a beacon carrying `serial` brings its brick in at `now`.
    mutating func admit(serial: String, at now: ContinuousClock.Instant) -> Verdict {
        if configured.contains(DeviceID.ev3(serial: serial)) || permitting(at: now) { return .admitted }
        refusedSinceNotice += 1
        guard noticedAt.map({ now - $0 >= noticeInterval }) ?? true else { return .refused(notice: nil) }
        noticedAt = now
        defer { refusedSinceNotice = 0 }
        return .refused(notice: refusedSinceNotice)
    }
}
