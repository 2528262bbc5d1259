/// Whole numbers out of JSON that a broker client or a peer sent: a JSON number is a `Double`, and converting one
/// beyond an integer's range (`1e19`) or not finite traps, so every conversion of such a number goes through here.
extension FixedWidthInteger {
    /// The value as this integer type when it is finite, whole (or `rounding` to the nearest whole) and within
    /// `range`; nil otherwise.
    public init?(checking value: Double, in range: ClosedRange<Self>, rounding: Bool = false) {
        guard value.isFinite, let whole = Self(exactly: rounding ? value.rounded() : value), range.contains(whole) else {
            return nil
        }
        self = whole
    }
}

extension JSONValue {
    /// The number as an integer within `range` (see `init(checking:in:rounding:)`); nil for anything else.
    public func integer<Integer: FixedWidthInteger>(in range: ClosedRange<Integer>, rounding: Bool = false) -> Integer? {
        doubleValue.flatMap { Integer(checking: $0, in: range, rounding: rounding) }
    }
}
