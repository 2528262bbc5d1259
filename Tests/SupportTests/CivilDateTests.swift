import Support
import Testing

@Suite("Civil dates")
struct CivilDateTests {
    @Test(
        "day counts and dates convert both ways, leap days and dates before 1970 included",
        arguments: [
            (0, 1970, 1, 1), (-1, 1969, 12, 31), (11_016, 2000, 2, 29), (20_781, 2026, 11, 24), (-719_468, 0, 3, 1),
            (-25_508, 1900, 3, 1), (47_540, 2100, 2, 28),
        ])
    func convert(days: Int, year: Int, month: Int, day: Int) {
        #expect(CivilDate(daysSince1970: days) == CivilDate(year: year, month: month, day: day))
        #expect(CivilDate(year: year, month: month, day: day).daysSince1970 == days)
    }

    @Test("every day of eight centuries round-trips and follows the day before it")
    func roundTrip() {
        // Counted rather than expected one by one: a failure per day would bury the first one.
        var wrong: [Int] = []
        var previous = CivilDate(daysSince1970: -146_098)
        for days in -146_097...146_097 {
            let date = CivilDate(daysSince1970: days)
            let following =
                previous.day < CivilDate.daysIn(previous.month, of: previous.year)
                ? CivilDate(year: previous.year, month: previous.month, day: previous.day + 1)
                : previous.month < 12 ? CivilDate(year: previous.year, month: previous.month + 1, day: 1)
                : CivilDate(year: previous.year + 1, month: 1, day: 1)
            if date.daysSince1970 != days || date != following { wrong.append(days) }
            previous = date
        }
        #expect(wrong.isEmpty)
    }

    @Test("month lengths follow the Gregorian leap rule")
    func monthLengths() {
        #expect(CivilDate.daysIn(2, of: 2024) == 29 && CivilDate.daysIn(2, of: 1900) == 28 && CivilDate.daysIn(2, of: 2000) == 29)
        #expect(CivilDate.daysIn(4, of: 2025) == 30 && CivilDate.daysIn(12, of: 2025) == 31)
    }
}
