/// The wait for a burst's next batch, stepped with what the mailbox shows and the time, so its rule is tested
/// without a bus or a clock: the wait ends at `deadline` while signals keep coming, as soon as the D-Bus loop
/// thread has waited `quietSpell` for the bus with every signal handed over (the burst has ended), or at once
/// when something more than an advert came. Only the loop's own wait counts as quiet: on a busy machine the
/// loop thread is often preempted for longer than a spell in the middle of a burst, and a gap in what reached
/// the mailbox would then end the burst, its held states going out many times over. Once the loop has waited
/// `early` with signals left in the mailbox, they are taken at once, still as part of the burst: the driver
/// decodes them while the rest of the spell is waited out, so the burst's end finds nothing left to decode.
struct BurstWait {
    /// How a wait ended.
    enum Outcome: Equatable {
        /// The deadline came with signals still coming: the burst goes on.
        case flowing
        /// The loop thread has waited `early` for the bus: what came is taken, and the burst's end looked for next.
        case quieting
        /// The loop thread has waited a whole spell, or something more than an advert came: the burst has ended.
        case ended
    }

    /// What the waiter does next.
    enum Step: Equatable {
        /// Sleep until then, and step again.
        case sleep(until: ContinuousClock.Instant)
        /// The wait is over.
        case done(Outcome)
    }

    let deadline: ContinuousClock.Instant
    let quietSpell: Duration
    /// How soon the waiter looks again while the loop thread reads: a third of a spell, so the spell's end is
    /// seen little later than it comes.
    var recheck: Duration { quietSpell / 3 }
    /// How long the loop thread must have waited before what came is taken ahead of the spell's end: a quarter
    /// of a spell, longer than the loop's usual waits in the middle of a burst (well under 1 ms), so a burst's
    /// batches stay 10 ms apart.
    var early: Duration { quietSpell / 4 }
    /// Signals the mailbox had counted at the last step (it counts from zero at each drain).
    private var seen = 0

    /// A wait that ends at `deadline`, or one spell past it when no signal came since the last look.
    init(deadline: ContinuousClock.Instant, quietSpell: Duration) {
        self.deadline = deadline
        self.quietSpell = quietSpell
    }

    /// The next step, given the mailbox's progress and the time.
    mutating func step(_ progress: SignalMailbox.Progress, now: ContinuousClock.Instant) -> Step {
        if progress.urgent { return .done(.ended) }
        if let since = progress.waitingSince {
            if now >= since + quietSpell { return .done(.ended) }
            if progress.received > 0, now >= since + early { return .done(.quieting) }
        }
        let fresh = progress.received != seen
        seen = progress.received
        let look = progress.waitingSince.map { $0 + (progress.received > 0 ? early : quietSpell) } ?? now + recheck
        guard now >= deadline else { return .sleep(until: min(deadline, look)) }
        if fresh { return .done(.flowing) }
        // At the deadline with no signal since the last look, the spell it cut short is waited out, so a gap
        // shorter than a spell never ends a burst; a loop thread still reading by then has more to hand over.
        let last = deadline + quietSpell
        guard now >= last else { return .sleep(until: min(look, last)) }
        return .done(progress.waitingSince == nil ? .flowing : .ended)
    }
}
