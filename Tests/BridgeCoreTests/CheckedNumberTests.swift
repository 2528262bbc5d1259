import BridgeCore
import Testing

@Suite("Whole numbers out of JSON: in range or nothing, never a trap")
struct CheckedNumberTests {
    @Test(
        "a number becomes an Int only when finite, whole and in range",
        arguments: [
            (0.0, false, 0), (42.0, false, 42), (-5.0, false, -5), (1000.0, false, 1000), (1000.5, false, nil),
            (1000.5, true, nil), (999.6, true, 1000), (2.5, false, nil), (2.4, true, 2), (-0.0, false, 0), (1001.0, false, nil),
            (-6.0, false, nil), (1e19, false, nil), (1e19, true, nil), (-1e19, false, nil), (9.3e18, false, nil),
            (.nan, false, nil), (.nan, true, nil), (.infinity, false, nil), (-.infinity, true, nil),
            (.greatestFiniteMagnitude, true, nil), (.leastNonzeroMagnitude, false, nil), (.leastNonzeroMagnitude, true, 0),
        ] as [(Double, Bool, Int?)])
    func int(value: Double, rounding: Bool, expected: Int?) {
        #expect(Int(checking: value, in: -5...1000, rounding: rounding) == expected)
        #expect(JSONValue.number(value).integer(in: -5...1000, rounding: rounding) == expected)
    }

    @Test(
        "the whole range of the type is reachable, and one past it is not",
        arguments: [
            (9_007_199_254_740_992.0, Int64(9_007_199_254_740_992)), (-9_007_199_254_740_992.0, -9_007_199_254_740_992),
            (9_223_372_036_854_775_807.0, nil), (-9_223_372_036_854_775_808.0, Int64.min), (1e19, nil), (-1e19, nil),
        ] as [(Double, Int64?)])
    func int64(value: Double, expected: Int64?) {
        #expect(Int64(checking: value, in: .min ... .max) == expected)
    }

    @Test("only numbers convert: strings, null and objects do not")
    func onlyNumbers() {
        for value: JSONValue in ["12", .null, true, [:], [12]] {
            #expect(value.integer(in: Int.min ... Int.max) == nil)
        }
        #expect(JSONValue.number(255).integer(in: UInt8.min ... UInt8.max) == 255)
        #expect(JSONValue.number(256).integer(in: UInt8.min ... UInt8.max) == nil)
    }
}
