@testable import BlueZ
import Testing

@Suite("The wait for a burst's next batch, stepped with the mailbox's progress and the time")
struct BurstWaitTests {
    static let t0 = ContinuousClock.now
    static func at(_ ms: Int) -> ContinuousClock.Instant { t0 + .milliseconds(ms) }
    static func at(µs: Int) -> ContinuousClock.Instant { t0 + .microseconds(µs) }
    /// `received` signals since the drain; the loop thread waiting since `waiting` ms, or (nil) reading.
    static func progress(_ received: Int, waiting ms: Int? = nil, urgent: Bool = false) -> SignalMailbox.Progress {
        .init(received: received, urgent: urgent, waitingSince: ms.map { at($0) })
    }

    /// Steps a wait with a 10 ms deadline and a 3 ms quiet spell through (progress, now in ms) looks.
    static func steps(_ looks: [(SignalMailbox.Progress, Int)]) -> [BurstWait.Step] {
        var wait = BurstWait(deadline: at(10), quietSpell: .milliseconds(3))
        return looks.map { wait.step($0.0, now: at($0.1)) }
    }

    @Test(
        "each sequence of looks gives the steps the rule says",
        arguments: [
            // The loop thread reads: looked at again every millisecond, and at the deadline the burst goes on.
            ([(progress(5), 0), (progress(9), 1), (progress(20), 9), (progress(40), 10)],
             [BurstWait.Step.sleep(until: at(1)), .sleep(until: at(2)), .sleep(until: at(10)), .done(.flowing)]),
            // The loop waits from 1 ms with signals left: they are taken once it has waited a quarter of a spell...
            ([(progress(5, waiting: 1), 1), (progress(5, waiting: 1), 2)], [.sleep(until: at(µs: 1750)), .done(.quieting)]),
            // ...and the next wait, with nothing left, ends when the spell since the loop's wait has passed (not a
            // spell from the look at 2 ms)...
            ([(progress(0, waiting: 1), 2), (progress(0, waiting: 1), 4)], [.sleep(until: at(4)), .done(.ended)]),
            // ...unless a signal comes first: the loop reads again, and the burst goes on.
            ([(progress(0, waiting: 1), 2), (progress(1), 3), (progress(30), 10)],
             [.sleep(until: at(4)), .sleep(until: at(4)), .done(.flowing)]),
            // Signals came after the drain, then the loop waited a whole spell: the burst has ended at once.
            ([(progress(7, waiting: 1), 6)], [.done(.ended)]),
            // A loop thread preempted for longer than a spell (no signal, but not waiting) does not end the burst.
            ([(progress(5), 0), (progress(5), 4), (progress(5), 8)], [.sleep(until: at(1)), .sleep(until: at(5)), .sleep(until: at(9))]),
            // Something more than an advert ends the wait at once, and says nothing is flowing.
            ([(progress(3, urgent: true), 0)], [.done(.ended)]),
            ([(progress(3), 0), (progress(4, urgent: true), 1)], [.sleep(until: at(1)), .done(.ended)]),
            // At the deadline, the loop waiting since 9 ms with nothing left to take: the spell is waited out, and a
            // signal by then means the burst goes on...
            ([(progress(0, waiting: 9), 9), (progress(0, waiting: 9), 10), (progress(1), 11)],
             [.sleep(until: at(10)), .sleep(until: at(12)), .done(.flowing)]),
            // ...and none means it has ended.
            ([(progress(0, waiting: 9), 9), (progress(0, waiting: 9), 10), (progress(0, waiting: 9), 12)],
             [.sleep(until: at(10)), .sleep(until: at(12)), .done(.ended)]),
            // A loop thread still reading a spell past the deadline has more to hand over: the burst goes on.
            ([(progress(5), 9), (progress(5), 10), (progress(5), 11), (progress(5), 13)],
             [.sleep(until: at(10)), .sleep(until: at(11)), .sleep(until: at(12)), .done(.flowing)]),
            // A caller already past the deadline with signals since the drain goes on without sleeping.
            ([(progress(50), 12)], [.done(.flowing)]),
        ] as [([(SignalMailbox.Progress, Int)], [BurstWait.Step])])
    func rule(looks: [(SignalMailbox.Progress, Int)], expected: [BurstWait.Step]) {
        #expect(Self.steps(looks) == expected)
    }

    @Test("the mailbox notes since when the loop waits, keeps the first time, and forgets it with the next signal")
    func mailboxNotesTheWait() {
        let mailbox = SignalMailbox()
        #expect(mailbox.progress.waitingSince == nil, "nothing said yet")
        let before = ContinuousClock.now
        mailbox.loopWaits()
        let since = mailbox.progress.waitingSince
        #expect(since.map { $0 >= before && $0 <= .now } == true)
        mailbox.loopWaits()
        #expect(mailbox.progress.waitingSince == since, "a second wait without a signal in between keeps the first")
        _ = mailbox.drain()
        #expect(mailbox.progress == .init(received: 0, urgent: false, waitingSince: since), "kept across a drain")
        mailbox.receive(SignalMailboxTests.changed("/dev_a", ["RSSI": .int16(-60)]))
        #expect(mailbox.progress == .init(received: 1, urgent: false, waitingSince: nil))
    }
}
