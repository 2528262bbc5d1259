/// The wait for a burst's next batch, stepped with what the mailbox shows and the time, so its rule is tested
/// without a bus or a clock: the wait ends at `deadline` while signals keep coming, as soon as `quietSpell` has
/// passed since the last signal (the burst has ended), or at once when something more than an advert came.
/// The quiet spell counts from the signal itself, not from when the waiter last looked, so the end of a burst
/// is seen one spell after its last signal, never up to two.
struct BurstWait {
    /// What the waiter does next.
    enum Step: Equatable {
        /// Sleep until then, and step again.
        case sleep(until: ContinuousClock.Instant)
        /// The wait is over; `flowing` says whether signals were still coming.
        case done(flowing: Bool)
    }

    let deadline: ContinuousClock.Instant
    let quietSpell: Duration
    /// Signals the mailbox had counted at the last step (it counts from zero at each drain).
    private var seen = 0

    /// A wait that ends at `deadline` at the latest, unless a spell cut short by it is waited out.
    init(deadline: ContinuousClock.Instant, quietSpell: Duration) {
        self.deadline = deadline
        self.quietSpell = quietSpell
    }

    /// The next step, given the mailbox's progress and the time.
    mutating func step(_ progress: SignalMailbox.Progress, now: ContinuousClock.Instant) -> Step {
        if progress.urgent { return .done(flowing: false) }
        let quietEnds = progress.last + quietSpell
        if now >= quietEnds { return .done(flowing: false) }
        let fresh = progress.received != seen
        seen = progress.received
        guard now >= deadline else { return .sleep(until: min(deadline, quietEnds)) }
        // At the deadline a signal since the last look means the burst goes on; without one, the spell the
        // deadline cut short is waited out, so a gap shorter than a spell never ends a burst.
        return fresh ? .done(flowing: true) : .sleep(until: quietEnds)
    }
}
