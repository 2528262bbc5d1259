import Support

/// Renders the `Date` header (RFC 7231 IMF-fixdate) without a date formatter, which is neither
/// thread-safe nor cheap enough to build per request.
enum HTTPDateFormat {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Tue, 24 Nov 2026 12:00:00 GMT` for epoch second 1795521600.
    static func string(epoch: Int) -> String {
        let days = epoch >= 0 ? epoch / 86_400 : (epoch - 86_399) / 86_400
        let seconds = epoch - days * 86_400
        let date = CivilDate(daysSince1970: days)
        let weekday = weekdays[((days % 7) + 11) % 7]
        return "\(weekday), \(two(date.day)) \(months[date.month - 1]) \(date.year) \(two(seconds / 3_600)):\(two(seconds / 60 % 60)):\(two(seconds % 60)) GMT"
    }

    private static func two(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
