import BLEModels
import Testing

@Suite("New passive devices: token bucket, ceiling and permit window")
struct PassiveAdmissionTests {
    static let start = ContinuousClock.now

    static func at(_ seconds: Double) -> ContinuousClock.Instant { start + .seconds(seconds) }

    /// Takes at the given seconds, and which of them got a token.
    static let buckets: [(capacity: Int, perMinute: Int, takes: [Double], granted: [Bool])] = [
        // Three at once, then one every 20 s.
        (3, 3, [0, 0, 0, 0, 19.9, 20, 20.1, 40, 60], [true, true, true, false, false, true, false, true, true]),
        // Quiet for long: back to full, never above.
        (2, 60, [0, 0, 0, 600, 600, 600], [true, true, false, true, true, false]),
        // Tokens come back one per interval, counted from the first take after the bucket was full.
        (1, 6, [0, 5, 10, 15, 20, 29.9, 30], [true, false, true, false, true, false, true]),
        // No refill: the burst and nothing more.
        (2, 0, [0, 1, 2, 3600], [true, true, false, false]),
        // No burst and no refill: nothing.
        (0, 0, [0, 100], [false, false]),
        // An instant before the last step adds nothing and takes nothing back.
        (1, 60, [10, 5, 11], [true, false, true]),
    ]

    @Test("the bucket grants a burst, then one token per interval", arguments: 0..<buckets.count)
    func bucket(index: Int) {
        let row = Self.buckets[index]
        var bucket = TokenBucket(capacity: row.capacity, perMinute: row.perMinute)
        let granted = row.takes.map { bucket.take(at: Self.at($0)) }
        #expect(granted == row.granted)
    }

    @Test("the default admits 50 at once, then 10 a minute; 120 forged sensors in seconds admit 50")
    func defaults() {
        var admission = PassiveAdmission()
        let first = (0..<120).map { admission.admit(at: Self.at(Double($0) / 40)) }
        #expect(first.filter { $0 == .admitted }.count == 50)
        // A minute later ten more.
        let later = (0..<20).map { admission.admit(at: Self.at(63 + Double($0) / 100)) }
        #expect(later.filter { $0 == .admitted }.count == 10)
        #expect(admission.admitted == 60)
    }

    @Test("past the ceiling nothing is admitted however long it waits; a removed device frees its place")
    func ceiling() {
        var admission = PassiveAdmission(burst: 10, perMinute: 60, maxDevices: 3)
        let verdicts = (0..<5).map { admission.admit(at: Self.at(Double($0))) }
        #expect(verdicts.prefix(3).allSatisfy { $0 == .admitted })
        #expect(verdicts[3] == .refused(.init(refusal: .limit, refused: 1)))
        #expect(verdicts[4] == .refused(nil))
        #expect(admission.admit(at: Self.at(3600)) == .refused(.init(refusal: .limit, refused: 2)))
        admission.release()
        #expect(admission.admit(at: Self.at(3601)) == .admitted)
    }

    /// Refusals at the given seconds, and the notices expected (refused since the last notice), nil for none.
    static let notices: [(takes: [Double], notices: [Int?])] = [
        // One notice at the first refusal, then none until the interval has passed; it counts what came between.
        ([0, 1, 2, 299, 300, 301, 600], [1, nil, nil, nil, 4, nil, 2]),
        ([0, 1000, 2000], [1, 1, 1]),
    ]

    @Test("refusals are told once, then at most once per interval, with how many there were", arguments: 0..<notices.count)
    func notice(index: Int) {
        let row = Self.notices[index]
        var admission = PassiveAdmission(burst: 0, perMinute: 0, maxDevices: 10, noticeInterval: .seconds(300))
        let told = row.takes.map { time -> Int? in
            guard case .refused(let notice) = admission.admit(at: Self.at(time)) else { return -1 }
            return notice?.refused
        }
        #expect(told == row.notices)
        #expect(admission.admit(at: Self.at(5000)) == .refused(.init(refusal: .rate, refused: 1)))
    }

    @Test("the permit window is open until its end, and closed by a zero time", arguments: [
        (60.0, 10.0, true), (60, 59.9, true), (60, 60, false), (60, 100, false), (0, 0, false), (-5, 0, false),
    ])
    func window(duration: Double, asked: Double, open: Bool) {
        var admission = PassiveAdmission()
        admission.permit(for: .seconds(duration), at: Self.at(0))
        #expect(admission.permitting(at: Self.at(asked)) == open)
        admission.permit(for: .zero, at: Self.at(1))
        #expect(!admission.permitting(at: Self.at(2)))
    }
}
