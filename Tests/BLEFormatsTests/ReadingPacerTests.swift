import BLEFormats
import Testing

@Suite("The ingest rule: a device weighed at most once a period, what waits weighed at the next period's start")
struct ReadingPacerTests {
    /// One call: the time, the devices of the batch; then what is weighed and when the rest is due.
    struct Step: Sendable, CustomTestStringConvertible {
        var at: Double
        var arrived: [String]
        var weighed: [String]
        var next: Double?
        var testDescription: String { "at \(at): \(arrived) → \(weighed), next \(next.map { "\($0)" } ?? "none")" }
    }

    @Test(
        "batches at these times",
        arguments: [
            // A lone reading is weighed with its batch; nothing waits.
            [Step(at: 0.05, arrived: ["a"], weighed: ["a"], next: nil)],
            // A second reading of the period waits for the next period's start, and only one waits however many come.
            [
                Step(at: 0.05, arrived: ["a"], weighed: ["a"], next: nil),
                Step(at: 0.06, arrived: ["a"], weighed: [], next: 0.2),
                Step(at: 0.10, arrived: ["a"], weighed: [], next: 0.2),
                Step(at: 0.20, arrived: [], weighed: ["a"], next: nil),
            ],
            // Devices are weighed apart: one waiting holds up no other.
            [
                Step(at: 0.01, arrived: ["a", "b"], weighed: ["a", "b"], next: nil),
                Step(at: 0.02, arrived: ["a", "c"], weighed: ["c"], next: 0.2),
                Step(at: 0.03, arrived: ["b"], weighed: [], next: 0.2),
                Step(at: 0.25, arrived: [], weighed: ["a", "b"], next: nil),
            ],
            // A batch in a new period weighs what waited first, once, with its own readings; others of the batch follow.
            [
                Step(at: 0.01, arrived: ["a"], weighed: ["a"], next: nil),
                Step(at: 0.02, arrived: ["a"], weighed: [], next: 0.2),
                Step(at: 0.21, arrived: ["b", "a"], weighed: ["a", "b"], next: nil),
                // Weighed at the period's start: the next reading of that period waits.
                Step(at: 0.22, arrived: ["a"], weighed: [], next: 0.4),
            ],
            // A quiet period between: the next reading is weighed at once.
            [
                Step(at: 0.01, arrived: ["a"], weighed: ["a"], next: nil),
                Step(at: 0.90, arrived: ["a"], weighed: ["a"], next: nil),
            ],
            // A timer late by periods still weighs what waited, at once.
            [
                Step(at: 0.01, arrived: ["a"], weighed: ["a"], next: nil),
                Step(at: 0.02, arrived: ["a"], weighed: [], next: 0.2),
                Step(at: 1.30, arrived: [], weighed: ["a"], next: nil),
                Step(at: 1.31, arrived: ["a"], weighed: [], next: 1.4),
            ],
        ])
    func steps(_ steps: [Step]) {
        var pacer = ReadingPacer<String>(period: 0.2)
        for step in steps {
            #expect(pacer.settle(step.arrived, at: step.at) == step.weighed, "\(step.testDescription)")
            #expect(pacer.nextPeriod.map { ($0 * 1000).rounded() / 1000 } == step.next, "\(step.testDescription)")
        }
    }

    @Test("a burst of any length: one weighing per device and period, and every device's last readings weighed")
    func burst() {
        var pacer = ReadingPacer<Int>(period: 0.2)
        var weighings: [Int: [Double]] = [:]
        // 100 devices, each heard every 10 ms for 3 s, in batches 5 ms apart; then the timer alone.
        var time = 0.0
        var last: [Int: Double] = [:]
        while time < 3 {
            let batch = (0..<100).filter { _ in Int((time * 1000).rounded()) % 10 == 0 }
            for device in batch { last[device] = time }
            for device in pacer.settle(batch, at: time) { weighings[device, default: []].append(time) }
            time += 0.005
        }
        while let next = pacer.nextPeriod {
            for device in pacer.settle([], at: next) { weighings[device, default: []].append(next) }
        }
        for device in 0..<100 {
            let times = weighings[device] ?? []
            let periods = times.map { Int(($0 / 0.2).rounded(.down) + 1e-9) }
            #expect(Set(periods).count == periods.count, "device \(device) weighed twice in a period: \(times)")
            #expect((times.last ?? 0) >= last[device]!, "device \(device)'s last readings were weighed")
            #expect((times.last ?? 0) - last[device]! <= 0.2 + 1e-9, "within a period of its last reading")
        }
    }
}
