@testable import BlueZ
import Testing

@Suite("The ingest rule's batches: at once after a wait for a signal, 4 ms apart while the bus keeps the driver busy")
struct BatchGapTests {
    @Test(
        "batches taken at these milliseconds, with or without a wait first",
        arguments: [
            // Idle: each batch came with a wait, so the next is taken at once.
            ([(0, true), (1, true), (2, true)], [nil, nil, nil]),
            // Busy: the next batch waits until 4 ms after the last one was taken.
            ([(0, false), (4, false), (9, false)], [4, 8, 13]),
            // A wait in between ends the gap: the batch after it is taken at once.
            ([(0, false), (4, true), (5, false)], [4, nil, 9]),
        ] as [([(Int, Bool)], [Int?])])
    func gaps(batches: [(Int, Bool)], next: [Int?]) {
        var gap = BatchGap(gap: .milliseconds(4))
        let start = ContinuousClock.now
        var found: [Int?] = []
        for (at, waited) in batches {
            gap.took(at: start + .milliseconds(at), waited: waited)
            found.append(gap.nextTake().map { Int(($0 - start) / .milliseconds(1)) })
        }
        #expect(found == next)
        #expect(gap.nextTake() == nil, "asked once per batch: a second look takes at once")
    }
}
