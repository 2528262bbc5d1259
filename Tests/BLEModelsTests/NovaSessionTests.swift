import BLEModels
import BridgeCore
import Testing

/// The Nova's session stepped by hand with an injected time: what is written when, and what is published.
@Suite("A Nova's session: confirmed by its ack, renewed without gaps or noise")
struct NovaSessionTests {
    let start = ContinuousClock.now
    static let on = SetCommand(light: LightCommand(power: .on, brightness: 255, kelvin: 2700))
    static let off = SetCommand(light: LightCommand(power: .off))

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int((seconds * 1000).rounded())) }

    /// Sends the due frame at `sent`, BlueZ takes it at once, and the ack comes at `acked`.
    func roundTrip(_ session: inout NovaSession, sent: Double, acked: Double) throws -> (NovaFrame, [NovaSession.Effect], [NovaSession.Effect]) {
        let due = session.nextWrite(now: at(sent))
        let frame = try #require(due)
        let sending = session.sending(frame.id, now: at(sent))
        session.written(frame.id, now: at(sent))
        return (frame, sending, session.acked(frame.id, now: at(acked)))
    }

    /// A session lit by a user's ON sent at 0 and acked at `acked`, and the renewal it has due at `due`.
    func litWithRenewal(acked: Double, due: Double) throws -> (NovaSession, NovaFrame) {
        var session = NovaSession()
        session.request(Self.on)
        _ = try roundTrip(&session, sent: 0, acked: acked)
        let renewal = session.nextWrite(now: at(due))
        return (session, try #require(renewal))
    }

    @Test("a user's ON is busy while in flight, and published with ready only after the ack")
    func confirmedByAck() throws {
        var session = NovaSession()
        session.request(Self.on)
        #expect(session.confirmed.isOn == false, "nothing shows ON before the flash says so")
        let (frame, sending, acked) = try roundTrip(&session, sent: 0, acked: 1.2)
        #expect(frame.description == "(01:L,FF,00,05DC)")
        #expect(sending == [.busy])
        #expect(acked == [.state(session.wanted), .ready])
        #expect(session.confirmed.isOn)
    }

    @Test("with 1.2 s acks each renewal leaves before the previous frame's 1.5 s run out, and publishes nothing")
    func renewalsWithSlowAcks() throws {
        var session = NovaSession()
        session.request(Self.on)
        var sentTimes: [Double] = []
        var published: [NovaSession.Effect] = []
        var clock = 0.0
        for _ in 0..<6 {
            // The driver writes as soon as a frame is due: at the deadline, or at once after an ack.
            let due = session.deadline(now: at(clock)).map { max(($0 - start) / .milliseconds(1) / 1000, clock) } ?? clock
            clock = due
            let (frame, sending, acked) = try roundTrip(&session, sent: clock, acked: clock + 1.2)
            #expect(frame.description.hasSuffix(",05DC)"), "\(frame)")
            sentTimes.append(clock)
            if sentTimes.count > 1 { published += sending + acked }
            clock += 1.2
        }
        for (previous, next) in zip(sentTimes, sentTimes.dropFirst()) {
            #expect(next - previous < 1.5, "frame at \(next) s after one at \(previous) s: dark in between")
        }
        #expect(published.isEmpty, "renewals published \(published)")
    }

    @Test("acks slower than the flash's timeout: the frames carry a longer one, so renewals still come in time")
    func longerTimeoutForSlowerAcks() throws {
        let (_, renewal) = try litWithRenewal(acked: 1.9, due: 1.9)
        guard case .light(_, _, let timeout) = renewal.command else { Issue.record("\(renewal)"); return }
        #expect(timeout >= 3000, "\(renewal)")
    }

    @Test("fast acks: renewed at two thirds of the timeout after the last frame was written")
    func renewalTiming() throws {
        var session = NovaSession()
        session.request(Self.on)
        _ = try roundTrip(&session, sent: 0, acked: 0.05)
        #expect(session.nextWrite(now: at(0.9)) == nil)
        #expect(session.deadline(now: at(0.9)) == at(1.0))
        #expect(session.nextWrite(now: at(1.0)) != nil)
    }

    @Test("handed to another bridge: a lit flash is no longer renewed here, and no deadline wakes the timer for it")
    func handedOver() throws {
        var session = NovaSession()
        session.request(Self.on)
        _ = try roundTrip(&session, sent: 0, acked: 0.05)
        session.handedOver()
        #expect(session.nextWrite(now: at(1.0)) == nil)
        #expect(session.nextWrite(now: at(60)) == nil)
        #expect(session.deadline(now: at(1.0)) == nil)
        // A later command here (the device came back) is written as usual.
        session.request(Self.off)
        #expect(session.nextWrite(now: at(61)) != nil)
    }

    @Test("handed over while a renewal is taken for writing but not sent: it is dropped, with no failure and no OFF")
    func handedOverDuringRenewal() throws {
        var (session, renewal) = try litWithRenewal(acked: 0.1, due: 1.0)
        session.handedOver()
        #expect(session.writeFailed(renewal.id, reason: "held by another bridge") == [])
        #expect(session.confirmed.isOn && !session.awaitsAck && !session.isBusy)
        #expect(session.deadline(now: at(1.1)) == nil)
    }

    @Test("no ack within 2 s: the state stays as it was, ready again, and the failure names the frame")
    func ackTimeout() throws {
        var session = NovaSession()
        session.request(Self.on)
        let dueframe = session.nextWrite(now: at(0))
        let frame = try #require(dueframe)
        _ = session.sending(frame.id, now: at(0))
        session.written(frame.id, now: at(0.1))
        #expect(session.expire(now: at(2.0)) == [])
        let effects = session.expire(now: at(2.1))
        #expect(effects == [.ready, .failed("the Nova did not acknowledge (01:L,FF,00,05DC) within 2 s")])
        #expect(session.confirmed.isOn == false && session.wanted == session.confirmed)
        #expect(session.nextWrite(now: at(2.2)) == nil, "nothing is retried")
    }

    @Test("a failed renewal says OFF, since the flash turns itself off")
    func failedRenewal() throws {
        var (session, renewal) = try litWithRenewal(acked: 0.1, due: 1.0)
        let effects = session.writeFailed(renewal.id, reason: "not connected")
        #expect(effects.count == 2)
        #expect(effects.first == .state(session.confirmed) && session.confirmed.isOn == false)
        #expect(session.deadline(now: at(1.1)) == nil, "no more renewals")
    }

    @Test("a user's command waiting behind a renewal that fails still goes out next, and is busy until its ack")
    func commandBehindFailedRenewal() throws {
        var (session, renewal) = try litWithRenewal(acked: 0.1, due: 1.0)
        _ = session.sending(renewal.id, now: at(1.0))
        session.written(renewal.id, now: at(1.0))
        session.request(SetCommand(light: LightCommand(brightness: 10)))
        #expect(session.nextWrite(now: at(1.1)) == nil, "one request in flight")
        let failed = session.expire(now: at(3.1))
        #expect(failed.first == .state(session.confirmed) && session.confirmed.isOn == false)
        #expect(session.isBusy, "the user's command still waits")
        let duenext = session.nextWrite(now: at(3.1))
        let next = try #require(duenext, "the user's command is written after the failed renewal")
        #expect(session.isUserCommand(next.id))
        #expect(next.command == session.wanted.command && session.wanted.isOn && session.wanted.brightness == 10)
        #expect(session.sending(next.id, now: at(3.1)) == [.busy])
        let acked = session.acked(next.id, now: at(3.2))
        #expect(acked == [.state(session.wanted), .ready])
        #expect(session.confirmed.brightness == 10 && session.confirmed.isOn)
    }

    @Test("a failed renewal with no command waiting writes nothing more: the flash is dark by itself")
    func nothingAfterFailedRenewal() throws {
        var (session, renewal) = try litWithRenewal(acked: 0.1, due: 1.0)
        _ = session.writeFailed(renewal.id, reason: "not connected")
        #expect(!session.isBusy)
        #expect(session.nextWrite(now: at(1.2)) == nil)
    }

    @Test("an ack of another id confirms nothing; a newer command waits for the one in flight, latest wins")
    func strayAckAndLatestWins() throws {
        var session = NovaSession()
        session.request(Self.on)
        let duefirst = session.nextWrite(now: at(0))
        let first = try #require(duefirst)
        #expect(session.acked(first.id &+ 7, now: at(0.1)) == [.strayAck(first.id &+ 7, pending: first.id)])
        session.request(SetCommand(light: LightCommand(brightness: 10)))
        session.request(Self.off)
        #expect(session.nextWrite(now: at(0.2)) == nil, "one request in flight")
        let acked = session.acked(first.id, now: at(0.3))
        #expect(acked.count == 1, "still busy with the next command: \(acked)")
        let duenext = session.nextWrite(now: at(0.3))
        let next = try #require(duenext)
        #expect(next.command == .off)
        #expect(session.acked(next.id, now: at(0.4)).last == .ready)
        #expect(session.deadline(now: at(0.5)) == nil)
    }

    @Test("a frame awaits its ack from when it goes to BlueZ until it is acknowledged, fails or times out")
    func awaitsAck() throws {
        var session = NovaSession()
        session.request(Self.on)
        let dueframe = session.nextWrite(now: at(0))
        let frame = try #require(dueframe)
        #expect(!session.awaitsAck, "not yet: the flash is still being connected")
        _ = session.sending(frame.id, now: at(0.1))
        #expect(session.awaitsAck)
        session.written(frame.id, now: at(0.2))
        _ = session.acked(frame.id &+ 7, now: at(0.3))
        #expect(session.awaitsAck, "an ack of another id does not end it")
        _ = session.acked(frame.id, now: at(0.4))
        #expect(!session.awaitsAck)

        session.request(Self.off)
        let dueoff = session.nextWrite(now: at(0.5))
        let off = try #require(dueoff)
        _ = session.sending(off.id, now: at(0.5))
        _ = session.writeFailed(off.id, reason: "not connected")
        #expect(!session.awaitsAck, "a failed write ends it")

        session.request(Self.off)
        let duelast = session.nextWrite(now: at(0.6))
        let last = try #require(duelast)
        _ = session.sending(last.id, now: at(0.6))
        session.written(last.id, now: at(0.6))
        _ = session.expire(now: at(2.7))
        #expect(!session.awaitsAck, "so does the end of the ack window")
    }
}
