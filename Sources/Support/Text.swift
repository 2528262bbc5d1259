#if canImport(Glibc)
    import Glibc
#endif

/// Small text helpers the daemon needs without full Foundation: FoundationEssentials has no trimming, no
/// path arithmetic on strings and no `FileHandle`, and full Foundation brings ICU (34 MB) into the binary.
extension StringProtocol {
    /// Without whitespace (spaces, tabs, line breaks) at either end.
    public func trimmingWhitespace() -> String { trimming { $0.isWhitespace } }

    /// Without the characters `drop` matches at either end.
    public func trimming(where drop: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }
}

/// Numbers for log lines, the same in every locale (full Foundation's format styles bring ICU).
public enum DecimalText {
    /// `value` with at most `digits` decimals and no trailing zeros, ties to even: "10", "2.5", "0.25", "-1.5".
    public static func string(_ value: Double, maxFractionDigits digits: Int) -> String {
        var factor = 1
        for _ in 0..<max(0, digits) { factor *= 10 }
        let scaled = Int((abs(value) * Double(factor)).rounded(.toNearestOrEven))
        var fraction = String(scaled % factor)
        fraction = String(repeating: "0", count: max(0, digits - fraction.count)) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let sign = value < 0 ? "-" : ""
        return sign + String(scaled / factor) + (fraction.isEmpty ? "" : "." + fraction)
    }
}

/// Paths as the daemon writes them in its config and command line.
public enum PathText {
    /// The folder of `path`: "" for a bare name, "/" for a file at the root, as `dirname` without the ".".
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// Writes to the process's standard error whole, as log lines and fatal messages need, without a buffer.
public enum StandardError {
    /// Writes `text`, retrying short writes and interruptions.
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
