@testable import BlueZ
import Testing

@Suite("The wait for a burst's next batch, stepped with the mailbox's progress and the time")
struct BurstWaitTests {
    static let t0 = ContinuousClock.now
    static func at(_ ms: Int) -> ContinuousClock.Instant { t0 + .milliseconds(ms) }
    static func progress(_ received: Int, last ms: Int, urgent: Bool = false) -> SignalMailbox.Progress {
        .init(received: received, urgent: urgent, last: at(ms))
    }

    /// A wait with a 10 ms deadline and a 3 ms quiet spell, started at 0 ms.
    static func wait() -> BurstWait { BurstWait(deadline: at(10), quietSpell: .milliseconds(3)) }

    /// Steps one wait through (progress, now in ms) pairs and returns each step.
    static func steps(_ looks: [(SignalMailbox.Progress, Int)]) -> [BurstWait.Step] {
        var wait = wait()
        return looks.map { wait.step($0.0, now: at($0.1)) }
    }

    @Test(
        "each sequence of looks gives the steps the rule says",
        arguments: [
            // Signals keep coming: sleep to the spell's end after the last one, then to the deadline, where the burst goes on.
            ([(progress(5, last: 0), 0), (progress(9, last: 2), 3), (progress(20, last: 4), 5), (progress(40, last: 9), 10)],
             [BurstWait.Step.sleep(until: at(3)), .sleep(until: at(5)), .sleep(until: at(7)), .done(flowing: true)]),
            // The spell counts from the last signal (at 1 ms), not from the look (at 2 ms): quiet at 4 ms, not 5.
            ([(progress(5, last: 1), 2), (progress(5, last: 1), 4)], [.sleep(until: at(4)), .done(flowing: false)]),
            // Signals came after the drain but a spell passed since the last: the burst has ended at once.
            ([(progress(7, last: 1), 6)], [.done(flowing: false)]),
            // Something more than an advert ends the wait at once, and says nothing is flowing.
            ([(progress(3, last: 0, urgent: true), 0)], [.done(flowing: false)]),
            ([(progress(3, last: 0), 0), (progress(4, last: 1, urgent: true), 2)], [.sleep(until: at(3)), .done(flowing: false)]),
            // At the deadline with no signal since the last look, the spell it cut short is waited out: a signal by
            // then means the burst goes on...
            ([(progress(5, last: 8), 9), (progress(5, last: 8), 10), (progress(6, last: 10), 11)],
             [.sleep(until: at(10)), .sleep(until: at(11)), .done(flowing: true)]),
            // ...and none means it has ended.
            ([(progress(5, last: 8), 9), (progress(5, last: 8), 10), (progress(5, last: 8), 11)],
             [.sleep(until: at(10)), .sleep(until: at(11)), .done(flowing: false)]),
            // A caller already past the deadline with signals since the drain goes on without sleeping.
            ([(progress(50, last: 11), 12)], [.done(flowing: true)]),
        ] as [([(SignalMailbox.Progress, Int)], [BurstWait.Step])])
    func rule(looks: [(SignalMailbox.Progress, Int)], expected: [BurstWait.Step]) {
        #expect(Self.steps(looks) == expected)
    }

    @Test("the mailbox's progress tells when the last signal came, and keeps it across a drain")
    func mailboxKeepsLast() {
        let mailbox = SignalMailbox()
        let before = ContinuousClock.now
        mailbox.receive(SignalMailboxTests.changed("/dev_a", ["RSSI": .int16(-60)]))
        let after = ContinuousClock.now
        let last = mailbox.progress.last
        #expect(last >= before && last <= after)
        _ = mailbox.drain()
        #expect(mailbox.progress == .init(received: 0, urgent: false, last: last))
    }
}
