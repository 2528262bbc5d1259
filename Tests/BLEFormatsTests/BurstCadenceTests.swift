import BLEFormats
import Testing

@Suite("Burst cadence: states after every batch, or at most every interval while a burst goes on")
struct BurstCadenceTests {
    @Test(
        "batches at these times, in a burst or not, settle or hold",
        arguments: [
            // Outside a burst every batch settles.
            ([(0.0, false), (0.01, false), (0.02, false)], [true, true, true]),
            // A burst's first batch settles; then one per 50 ms, counted from the last settling.
            ([(0.0, true), (0.01, true), (0.04, true), (0.05, true), (0.06, true), (0.11, true)],
             [true, false, false, true, false, true]),
            // The burst's end settles at once, however soon.
            ([(0.0, true), (0.01, true), (0.015, false)], [true, false, true]),
            // After the end, a new burst's first batch waits for the interval since that settling.
            ([(0.0, false), (0.02, true), (0.05, true)], [true, false, true]),
        ])
    func cadence(batches: [(Double, Bool)], settles: [Bool]) {
        var cadence = BurstCadence(interval: 0.05)
        #expect(batches.map { cadence.settles(burstGoesOn: $0.1, at: $0.0) } == settles)
    }
}
