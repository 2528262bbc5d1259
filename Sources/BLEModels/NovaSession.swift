public import BridgeCore

/// One Nova flash's light as a state machine stepped by commands, writes, acks and the time: what the flash
/// shows (confirmed by its `(xx:A)` ack), what was asked for, and the one request in flight the protocol allows.
///
/// A user's command shows `busy` while in flight and its new state only once acknowledged; renewals, which
/// keep a lit flash lit, publish nothing unless they fail. Each renewal is due from when its predecessor was
/// written (the flash counts its timeout from the frame it received), and when acks come so slowly that the
/// next frame could not follow in time, the frames carry a longer timeout instead of leaving the flash dark.
public struct NovaSession: Sendable {
    /// What the driver does after a step.
    public enum Effect: Sendable, Equatable {
        /// A user's command is being written: the device's status is `busy`.
        case busy
        /// The flash acknowledged a new state: publish it.
        case state(NovaLightState)
        /// No user command is in flight any more: the status returns to `ready`.
        case ready
        /// A command (or a renewal) failed; `command_failed` with this reason.
        case failed(String)
        /// An ack for a request that is not pending: logged and ignored, it confirms nothing.
        case strayAck(UInt8, pending: UInt8?)
    }

    /// The request in flight.
    struct InFlight: Sendable {
        var frame: NovaFrame
        var state: NovaLightState
        /// A user's command rather than the bridge's own renewal.
        var byUser: Bool
        var started: ContinuousClock.Instant
        /// When the frame went to BlueZ; nil while the device is still being connected.
        var sent: ContinuousClock.Instant?
        /// When the ack window closes; set once BlueZ has taken the write.
        var ackBy: ContinuousClock.Instant?
    }

    /// How long the flash has to acknowledge a written frame.
    public static let ackWindow = Duration.seconds(2)
    /// How long connecting and writing may take before the request counts as failed.
    public static let writeWindow = Duration.seconds(45)

    /// What the flash shows, as last acknowledged.
    public private(set) var confirmed = NovaLightState()
    /// What was asked for last; newer commands replace older ones that have not been sent (latest wins).
    public private(set) var wanted = NovaLightState()
    var ids = NovaRequestIDs()
    var inFlight: InFlight?
    /// When the frame that keeps the flash lit now was written, and the timeout it carried.
    var litSince: ContinuousClock.Instant?
    var litTimeout: UInt16 = NovaLight.defaultTimeout
    /// The slowest of the last acks, from writing to ack.
    public private(set) var ackLatency = Duration.zero

    /// A flash that was never lit: it shows `OFF`.
    public init() {}

    /// Whether a user's command is waiting to be sent or in flight.
    public var isBusy: Bool { inFlight?.byUser == true || wanted != confirmed }

    /// A validated `/set`: becomes what is wanted; the state published stays what the flash shows.
    public mutating func request(_ set: SetCommand) {
        wanted = wanted.applying(set)
    }

    /// The frame to write now, if one is due: a changed state, or a renewal of the lit one. Marks it in flight.
    public mutating func nextWrite(now: ContinuousClock.Instant) -> NovaFrame? {
        guard inFlight == nil else { return nil }
        let byUser = wanted != confirmed
        guard byUser || renewalDue(now: now) else { return nil }
        let frame = NovaFrame(id: ids.next(), command: command(for: wanted))
        inFlight = InFlight(frame: frame, state: wanted, byUser: byUser, started: now)
        return frame
    }

    /// Whether a frame went to BlueZ and is neither acknowledged, failed nor timed out yet: a hand-over to another
    /// bridge waits for it, as the ack comes only over this connection.
    public var awaitsAck: Bool { inFlight?.sent != nil }

    /// Whether the frame of `id` carries a user's command (which may connect the flash) rather than a renewal.
    public func isUserCommand(_ id: UInt8) -> Bool { inFlight?.frame.id == id && inFlight?.byUser == true }

    /// The frame of `id` goes to BlueZ now (the device is connected): a user's command shows `busy`.
    public mutating func sending(_ id: UInt8, now: ContinuousClock.Instant) -> [Effect] {
        guard inFlight?.frame.id == id else { return [] }
        inFlight?.sent = now
        return inFlight?.byUser == true ? [.busy] : []
    }

    /// BlueZ took the write of `id`: the flash has the ack window from now.
    public mutating func written(_ id: UInt8, now: ContinuousClock.Instant) {
        guard inFlight?.frame.id == id else { return }
        inFlight?.ackBy = now + Self.ackWindow
    }

    /// An ack from the flash.
    public mutating func acked(_ id: UInt8, now: ContinuousClock.Instant) -> [Effect] {
        guard let request = inFlight, request.frame.id == id else { return [.strayAck(id, pending: inFlight?.frame.id)] }
        inFlight = nil
        let sent = request.sent ?? request.started
        ackLatency = now - sent
        litSince = request.state.isOn ? sent : nil
        if case .light(_, _, let timeout) = request.frame.command { litTimeout = timeout }
        let changed = confirmed != request.state
        confirmed = request.state
        var effects: [Effect] = changed ? [.state(confirmed)] : []
        // Another command waiting keeps the device busy; it goes out next.
        if request.byUser, wanted == confirmed { effects.append(.ready) }
        return effects
    }

    /// Writing `id` failed (connecting, resolving or BlueZ's write).
    public mutating func writeFailed(_ id: UInt8, reason: String) -> [Effect] {
        guard let request = inFlight, request.frame.id == id else { return [] }
        return fail(request, reason)
    }

    /// The ack window, or the write window, of the request in flight has closed without an ack.
    public mutating func expire(now: ContinuousClock.Instant) -> [Effect] {
        guard let request = inFlight else { return [] }
        if let ackBy = request.ackBy, now >= ackBy {
            return fail(request, "the Nova did not acknowledge \(request.frame) within 2 s")
        }
        if request.ackBy == nil, now - request.started >= Self.writeWindow {
            return fail(request, "writing \(request.frame) to the Nova did not finish in time")
        }
        return []
    }

    /// When something is due next: the ack or write window's end, or the next renewal; nil when idle.
    public func deadline(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        if let request = inFlight { return request.ackBy ?? request.started + Self.writeWindow }
        if wanted != confirmed { return now }
        guard confirmed.isOn, let litSince else { return nil }
        return litSince + NovaLight.renewalInterval(timeout: litTimeout)
    }

    /// Due at two thirds of the timeout the last frame carried, counted from when it was written.
    /// Another bridge drives the flash now (a cluster's hand-over): this one stops renewing it, since the new owner
    /// keeps it lit, and a renewal here could only fail. A renewal taken for writing but not sent yet is dropped
    /// with it, silently: the flash stays lit by the new owner, so it is no failure. A user's command still
    /// waiting is left to fail as it will.
    public mutating func handedOver() {
        litSince = nil
        if let request = inFlight, !request.byUser, request.sent == nil { inFlight = nil }
    }

    private func renewalDue(now: ContinuousClock.Instant) -> Bool {
        guard confirmed.isOn, let litSince else { return false }
        return now >= litSince + NovaLight.renewalInterval(timeout: litTimeout)
    }

    /// A failed user command leaves the flash as it was; a failed renewal lets it go dark by its own timeout,
    /// so the state says `OFF`. A user's command that waited behind the renewal still goes out next: it is the
    /// user's to see acknowledged or failed, not dropped with the renewal.
    private mutating func fail(_ request: InFlight, _ reason: String) -> [Effect] {
        inFlight = nil
        if request.byUser {
            wanted = confirmed
            return [.ready, .failed(reason)]
        }
        litSince = nil
        let dark = NovaLightState(
            isOn: false, brightness: confirmed.brightness, kelvin: confirmed.kelvin, effect: nil, timeout: confirmed.timeout)
        if wanted == confirmed { wanted = dark }
        confirmed = dark
        return [.state(dark), .failed("renewing the lit Nova failed, so it turns itself off: \(reason)")]
    }

    /// The timeout a frame carries: the flash's own unless acks are so slow that a renewal, which can only
    /// follow an ack, would come after it ran out; then twice the ack time.
    func frameTimeout(for state: NovaLightState) -> UInt16 {
        let own = Int(state.effect?.timeout ?? state.timeout)
        let latency = Int(ackLatency / .milliseconds(1))
        guard latency * 5 > own * 4 else { return UInt16(own) }
        return UInt16(min(latency * 2, Int(UInt16.max)))
    }

    private func command(for state: NovaLightState) -> NovaCommand {
        guard case .light(let warm, let cool, _) = state.command else { return state.command }
        return .light(warm: warm, cool: cool, timeout: frameTimeout(for: state))
    }
}
