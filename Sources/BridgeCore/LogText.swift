/// Text from outside (a web page's frame, a request's header) made safe for one log line: a CR or LF in it would
/// start a line of its own that reads as the daemon's, and other control characters can rewrite a terminal.
public enum LogText {
    /// `text` with every control character escaped (`\n`, `\r`, `\t`, else `\u{1B}`), cut at `limit` characters.
    public static func escaped(_ text: some StringProtocol, limit: Int = 256) -> String {
        var result = ""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            guard index < limit else {
                result += "…"
                break
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}":
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
