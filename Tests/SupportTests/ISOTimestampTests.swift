import Foundation
import Support
import Testing

@Suite("ISO 8601 text without Foundation")
struct ISOTimestampTests {
    @Test(
        "known instants",
        arguments: [
            (Int64(0), "1970-01-01T00:00:00Z"),
            (-1, "1969-12-31T23:59:59Z"),
            (951_782_400, "2000-02-29T00:00:00Z"),
            (1_795_731_387, "2026-11-26T22:16:27Z"),
            (4_102_444_799, "2099-12-31T23:59:59Z"),
        ])
    func known(seconds: Int64, text: String) {
        #expect(ISOTimestamp.string(secondsSince1970: seconds) == text)
    }

    @Test("agrees with Foundation's formatter across a century")
    func agreesWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let seconds = Int64.random(in: -2_000_000_000...4_000_000_000, using: &generator)
            let expected = Date(timeIntervalSince1970: TimeInterval(seconds)).ISO8601Format()
            #expect(ISOTimestamp.string(secondsSince1970: seconds) == expected, "\(seconds)")
        }
    }
}
