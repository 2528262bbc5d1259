import FoundationEssentials
import Support

/// The wall-clock time as `last_seen` text (`2026-11-25T22:16:27Z`), kept for the second it names: adverts come
/// by the thousand per second, and each would otherwise format the same text again.
struct LastSeenText {
    private var second: Int64 = .min
    private var text = ""

    /// The text for the current second.
    mutating func now() -> String { text(at: Int64(Date().timeIntervalSince1970.rounded(.down))) }

    /// The text for `seconds` since 1970, formatted only when the second changed.
    mutating func text(at seconds: Int64) -> String {
        if seconds != second {
            second = seconds
            text = ISOTimestamp.string(secondsSince1970: seconds)
        }
        return text
    }
}
