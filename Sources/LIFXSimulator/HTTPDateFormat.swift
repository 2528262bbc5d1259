/// Renders the `Date` header (RFC 7231 IMF-fixdate) without a date formatter, which is neither
/// thread-safe nor cheap enough to build per request.
enum HTTPDateFormat {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Tue, 24 Nov 2026 12:00:00 GMT` for epoch second 1795521600.
    static func string(epoch: Int) -> String {
        let days = epoch >= 0 ? epoch / 86_400 : (epoch - 86_399) / 86_400
        let seconds = epoch - days * 86_400
        let (year, month, day) = civil(days: days)
        let weekday = weekdays[((days % 7) + 11) % 7]
        return "\(weekday), \(two(day)) \(months[month - 1]) \(year) \(two(seconds / 3_600)):\(two(seconds / 60 % 60)):\(two(seconds % 60)) GMT"
    }

    /// Year, month and day of a day count from 1970-01-01 (the well-known civil-from-days algorithm).
    private static func civil(days: Int) -> (Int, Int, Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func two(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
