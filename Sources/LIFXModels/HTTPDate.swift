import Support

/// The `Date` header of an HTTP response (RFC 7231 §7.1.1.1), read without a date formatter.
public enum HTTPDate {
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let longWeekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Epoch seconds of an IMF-fixdate (`Tue, 24 Nov 2026 12:00:00 GMT`), or of the obsolete RFC 850
    /// (`Tuesday, 24-Nov-26 12:00:00 GMT`) and asctime (`Tue Nov 24 12:00:00 2026`) forms recipients
    /// must also accept; nil for anything else. The weekday is not checked against the date.
    public static func parse(_ text: String) -> Double? {
        let fields = text.split(separator: " ").map(String.init)
        if fields.count == 6, fields[5] == "GMT", let day = fields[0].dropComma, weekdays.contains(day) {
            return epoch(year: number(fields[3], 4...4), month: fields[2], day: number(fields[1], 2...2), time: fields[4])
        }
        if fields.count == 4, fields[3] == "GMT", let day = fields[0].dropComma, longWeekdays.contains(day) {
            let date = fields[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard date.count == 3, let short = number(date[2], 2...2) else { return nil }
            // Two-digit years: RFC 7231 reads them within 50 years of now; 1970–2069 serves any real clock.
            return epoch(year: short < 70 ? 2000 + short : 1900 + short, month: date[1], day: number(date[0], 2...2), time: fields[2])
        }
        if fields.count == 5, weekdays.contains(fields[0]) {
            return epoch(year: number(fields[4], 4...4), month: fields[1], day: number(fields[2], 1...2), time: fields[3])
        }
        return nil
    }

    private static func epoch(year: Int?, month name: String, day: Int?, time: String) -> Double? {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false).map { number(String($0), 2...2) }
        guard let year, let day, let month = months.firstIndex(of: name).map({ $0 + 1 }), clock.count == 3,
            let hour = clock[0], let minute = clock[1], let second = clock[2],
            hour < 24, minute < 60, second <= 60, (1...CivilDate.daysIn(month, of: year)).contains(day)
        else { return nil }
        let days = CivilDate(year: year, month: month, day: day).daysSince1970
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
    }

    /// A run of ASCII digits of an allowed length; `Int(_:)` alone would also take signs.
    private static func number(_ text: String, _ length: ClosedRange<Int>) -> Int? {
        guard length.contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }
}

extension String {
    /// The text without its trailing comma, or nil if it has none.
    fileprivate var dropComma: String? {
        hasSuffix(",") ? String(dropLast()) : nil
    }
}
