import LIFXModels
import Testing

/// A 429 as the driver sees it: the headers, the host's clock, and how many 429s came just before.
struct LimitedCase: Sendable, CustomTestStringConvertible {
    var name: String
    var reset: String?
    var date: String?
    /// The host's clock when the response arrived, relative to `RateResetTests.serverNow`.
    var hostOffset: Double
    var earlier429s = 0
    /// Seconds until the next request may go.
    var wait: Double
    var testDescription: String { name }
}

@Suite("Rate-limit resets against the server's Date")
struct RateResetTests {
    /// `Tue, 24 Nov 2026 12:00:00 GMT`.
    static let serverNow = 1_795_521_600.0
    static let serverDate = "Tue, 24 Nov 2026 12:00:00 GMT"

    static let dates: [(String, Double?)] = [
        ("Tue, 24 Nov 2026 12:00:00 GMT", 1_795_521_600),
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777),
        ("Sun Nov  6 08:49:37 1994", 784_111_777),
        ("Thu, 29 Feb 2024 23:59:59 GMT", 1_709_251_199),
        ("Wed, 01 Mar 2000 00:00:00 GMT", 951_868_800),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
        ("Wed, 31 Dec 1969 23:59:59 GMT", -1),
        ("Thu, 31 Dec 2099 23:59:59 GMT", 4_102_444_799),
        ("Mon, 24 Nov 2026 12:00:00 GMT", 1_795_521_600),
        ("", nil), ("1795521600", nil), ("Tue, 24 Nov 2026 12:00:00 UTC", nil), ("Tue, 24 Nov 2026 12:00:00", nil),
        ("Tue, 31 Nov 2026 12:00:00 GMT", nil), ("Sun, 29 Feb 2026 12:00:00 GMT", nil), ("Tue, 24 Nov 2026 24:00:00 GMT", nil),
        ("Tue, 24 Nov 2026 12:60:00 GMT", nil), ("Tue, 24 Nox 2026 12:00:00 GMT", nil), ("Tue, 24 Nov 2026 12:00 GMT", nil),
        ("Tue, +4 Nov 2026 12:00:00 GMT", nil), ("Tue, 24 Nov 26 12:00:00 GMT", nil), ("Tue 24 Nov 2026 12:00:00 GMT", nil),
        ("Tuesday, 24-Nov-2026 12:00:00 GMT", nil), ("Tue, 24 Nov 2026 12:00:00 GMT extra", nil), ("Xyz, 24 Nov 2026 12:00:00 GMT", nil),
    ]

    @Test("HTTP-date (IMF-fixdate, RFC 850, asctime)", arguments: dates)
    func httpDate(text: String, epoch: Double?) {
        #expect(HTTPDate.parse(text) == epoch)
    }

    static let cases: [LimitedCase] = [
        LimitedCase(name: "reset already passed by the host clock, no Date", reset: "1795521600", hostOffset: 10, wait: 1),
        LimitedCase(
            name: "reset 5 s after the server's Date, host clock 30 s ahead", reset: "1795521605", date: serverDate,
            hostOffset: 30, wait: 5),
        LimitedCase(
            name: "reset 5 s after the server's Date, host clock 30 s behind", reset: "1795521605", date: serverDate,
            hostOffset: -30, wait: 5),
        LimitedCase(name: "reset at the server's Date (rounded down)", reset: "1795521600", date: serverDate, hostOffset: 0, wait: 1),
        LimitedCase(name: "no reset header", date: serverDate, hostOffset: 0, wait: 60),
        LimitedCase(name: "unreadable reset", reset: "soon", date: serverDate, hostOffset: 0, wait: 60),
        LimitedCase(name: "reset a day away", reset: "1795608000", date: serverDate, hostOffset: 0, wait: 60),
        LimitedCase(name: "unreadable Date: the host clock is used", reset: "1795521605", date: "yesterday", hostOffset: 0, wait: 5),
        LimitedCase(name: "second 429 in a row, reset passed", reset: "1795521599", date: serverDate, hostOffset: 0, earlier429s: 1, wait: 2),
        LimitedCase(name: "third 429 in a row, reset passed", reset: "1795521599", date: serverDate, hostOffset: 0, earlier429s: 2, wait: 4),
        LimitedCase(name: "third 429 in a row, later reset", reset: "1795521610", date: serverDate, hostOffset: 0, earlier429s: 2, wait: 10),
        LimitedCase(name: "ninth 429 in a row stays at the 60 s cap", reset: "1795521599", date: serverDate, hostOffset: 0, earlier429s: 8, wait: 60),
    ]

    @Test("how long a 429 holds requests back", arguments: cases)
    func limited(_ testCase: LimitedCase) {
        let now = Self.serverNow + testCase.hostOffset
        var budget = RateBudget(random: { _ in 1 })
        for _ in 0..<testCase.earlier429s { budget.rateLimited(reset: now - 1, now: now) }
        let reset = RateReset.onHostClock(reset: testCase.reset, date: testCase.date, receivedAt: now)
        let wait = budget.rateLimited(reset: reset, now: now)
        #expect(wait == testCase.wait)
        #expect(budget.delay(for: .write, now: now) == testCase.wait)
        #expect(budget.delay(for: .poll, now: now + testCase.wait) == nil)
    }

    @Test("with real jitter, a passed reset waits at least a second and the third 429 waits longer than the first")
    func repeated() {
        var budget = RateBudget()
        let waits = (0..<3).map { _ in budget.rateLimited(reset: 100, now: 200) }
        #expect(waits[0] >= 1)
        #expect(waits[2] > waits[0])
        #expect(waits[1] > waits[0])
    }

    @Test("a successful response ends the back-off")
    func successResets() {
        var budget = RateBudget(random: { _ in 1 })
        for _ in 0..<4 { budget.rateLimited(reset: nil, now: 100) }
        budget.update(limit: 120, remaining: 119, reset: 160)
        #expect(budget.rateLimited(reset: 99, now: 100) == 1)
    }
}
