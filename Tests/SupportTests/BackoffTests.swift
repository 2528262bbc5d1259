import Support
import Testing

/// One back-off configuration, a deterministic random pick, and the delays it must hand out.
struct BackoffCase: Sendable, CustomTestStringConvertible {
    /// Where in the jitter range the random source lands.
    enum Pick: Sendable { case low, middle, high }

    var name: String
    var initial: Duration
    var maximum: Duration
    var multiplier = 2.0
    var jitter = 0.2
    var pick = Pick.middle
    /// Milliseconds, one per call of `next()`.
    var delays: [Int]
    var testDescription: String { name }

    var backoff: Backoff {
        let pick = pick
        return Backoff(initial: initial, maximum: maximum, multiplier: multiplier, jitter: jitter) { range in
            switch pick {
            case .low: range.lowerBound
            case .middle: (range.lowerBound + range.upperBound) / 2
            case .high: range.upperBound
            }
        }
    }
}

@Suite("Backoff")
struct BackoffTests {
    static let cases: [BackoffCase] = [
        BackoffCase(
            name: "doubles up to the cap", initial: .milliseconds(500), maximum: .seconds(30),
            delays: [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]),
        BackoffCase(
            name: "low jitter never goes below the initial delay", initial: .milliseconds(500), maximum: .seconds(30), pick: .low,
            delays: [500, 800, 1_600, 3_200, 6_400, 12_800, 24_000, 24_000]),
        BackoffCase(
            name: "high jitter never goes above the maximum", initial: .milliseconds(500), maximum: .seconds(30), pick: .high,
            delays: [600, 1_200, 2_400, 4_800, 9_600, 19_200, 30_000, 30_000]),
        BackoffCase(
            name: "no jitter, tripling", initial: .seconds(1), maximum: .seconds(10), multiplier: 3, jitter: 0, pick: .high,
            delays: [1_000, 3_000, 9_000, 10_000]),
        BackoffCase(name: "multiplier 1 is a constant delay", initial: .seconds(2), maximum: .seconds(60), multiplier: 1, delays: [2_000, 2_000, 2_000]),
        BackoffCase(
            name: "a maximum below the initial delay is raised to it", initial: .seconds(5), maximum: .seconds(1), delays: [5_000, 5_000]),
        BackoffCase(
            name: "a multiplier below 1 is raised to 1", initial: .seconds(1), maximum: .seconds(8), multiplier: 0.5, jitter: 0,
            delays: [1_000, 1_000]),
        BackoffCase(name: "a zero initial delay stays zero", initial: .zero, maximum: .seconds(1), delays: [0, 0, 0]),
        BackoffCase(
            name: "jitter above 1 is capped at 1", initial: .seconds(1), maximum: .seconds(60), jitter: 5, pick: .high,
            delays: [2_000, 4_000, 8_000]),
    ]

    @Test("delays per call", arguments: cases)
    func delays(_ testCase: BackoffCase) {
        var backoff = testCase.backoff
        let delays = testCase.delays.indices.map { _ in Self.milliseconds(backoff.next()) }
        #expect(delays == testCase.delays)
        #expect(backoff.failures == testCase.delays.count)
    }

    @Test("reset starts over from the initial delay")
    func reset() {
        var backoff = Backoff(initial: .seconds(1), maximum: .seconds(60), random: { _ in 1 })
        for _ in 0..<4 { _ = backoff.next() }
        #expect(backoff.failures == 4)
        backoff.reset()
        #expect(backoff.failures == 0)
        #expect(backoff.next() == .seconds(1))
        #expect(backoff.next() == .seconds(2))
    }

    @Test("next(after:) is the instant one delay later on the given clock")
    func onAClock() {
        var backoff = Backoff(initial: .seconds(1), maximum: .seconds(60), random: { _ in 1 })
        let continuous = ContinuousClock.now
        #expect(backoff.next(after: continuous) - continuous == .seconds(1))
        let suspending = SuspendingClock.now
        #expect(backoff.next(after: suspending) - suspending == .seconds(2))
        #expect(backoff.failures == 2)
    }

    @Test("a long outage stays at the cap", arguments: [2.0, 1.000_001, 1e300])
    func longOutage(multiplier: Double) {
        var backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(300), multiplier: multiplier, jitter: 0)
        var last = Duration.zero
        for _ in 0..<10_000 {
            let delay = backoff.next()
            #expect(delay >= last && delay <= .seconds(300))
            last = delay
        }
        #expect(backoff.failures == 10_000)
    }

    @Test("a misbehaving random source cannot escape the bounds", arguments: [Double.nan, .infinity, -5, 100])
    func wildRandom(value: Double) {
        var backoff = Backoff(initial: .seconds(1), maximum: .seconds(10), random: { _ in value })
        for _ in 0..<6 {
            let delay = backoff.next()
            #expect(delay >= .seconds(1) && delay <= .seconds(10))
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int((duration.inSeconds * 1000).rounded())
    }
}
