/// ISO 8601 text for a time in seconds since 1970, without Foundation (the civil date comes from `CivilDate`).
public enum ISOTimestamp {
    /// `YYYY-MM-DDTHH:MM:SSZ` in UTC.
    public static func string(secondsSince1970 seconds: Int64) -> String {
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let date = CivilDate(daysSince1970: Int(days))
        return pad(Int64(date.year), 4) + "-" + pad(Int64(date.month), 2) + "-" + pad(Int64(date.day), 2) + "T"
            + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2) + "Z"
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(width - text.count, 0)) + text
    }
}
