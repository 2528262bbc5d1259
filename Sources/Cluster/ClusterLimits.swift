import BridgeCore

/// The ranges a number in a cluster message must fall in. Anyone who can publish on the broker writes these
/// messages, so a number out of its range (`"epoch":1e19`) drops the message instead of trapping a conversion.
public enum ClusterLimits {
    /// Milliseconds since 1970: up to 2^53, where a JSON number still holds every whole millisecond.
    public static let epoch: ClosedRange<Int64> = 0...(1 << 53)
    /// A claim's term: raised once per change of owner, so 2^53 is never reached, and `term + 1` never overflows.
    public static let term: ClosedRange<Int> = 0...(1 << 53)
    /// Free connection slots of one bridge.
    public static let slots: ClosedRange<Int> = 0...100_000
    /// Connect failures in a row one bridge reports for a device.
    public static let failures: ClosedRange<Int> = 0...1_000_000
    /// A shared signal or score in dB (an RSSI plus an offset, less penalties).
    public static let signal: ClosedRange<Double> = -1000...1000

    /// A key that may be absent: `.some(nil)` when absent, nil when present and not a whole number in `range`.
    static func optional<Integer: FixedWidthInteger>(_ value: JSONValue?, in range: ClosedRange<Integer>) -> Integer?? {
        guard let value else { return .some(nil) }
        return value.integer(in: range).map { .some($0) }
    }

    /// A signal that may be absent: `.some(nil)` when absent, nil when present and not a finite number in range.
    static func optionalSignal(_ value: JSONValue?) -> Double?? {
        guard let value else { return .some(nil) }
        return signal(value).map { .some($0) }
    }

    /// A signal in range; nil for anything else.
    static func signal(_ value: JSONValue?) -> Double? {
        guard let number = value?.doubleValue, number.isFinite, signal.contains(number) else { return nil }
        return number
    }
}
