@testable import BridgeConfig
import Testing

/// What a scalar reads as: only plain scalars are null, bools or numbers; every scalar is text.
struct ScalarCase: Sendable, CustomTestStringConvertible {
    var text: String
    var plain = true
    var null = false
    var bool: Bool? = nil
    var int: Int? = nil
    var double: Double? = nil
    var testDescription: String { plain ? text : "'\(text)'" }
}

@Suite("Scalars resolve as YAML 1.1 reads them")
struct YAMLScalarTests {
    static let cases: [ScalarCase] = [
        .init(text: "", null: true), .init(text: "~", null: true), .init(text: "null", null: true),
        .init(text: "Null", null: true), .init(text: "NULL", null: true), .init(text: "nULL"),
        .init(text: "null", plain: false), .init(text: "", plain: false), .init(text: "~", plain: false),
        .init(text: "true", bool: true), .init(text: "True", bool: true), .init(text: "TRUE", bool: true),
        .init(text: "yes", bool: true), .init(text: "Yes", bool: true), .init(text: "YES", bool: true),
        .init(text: "on", bool: true), .init(text: "On", bool: true), .init(text: "ON", bool: true),
        .init(text: "false", bool: false), .init(text: "False", bool: false), .init(text: "FALSE", bool: false),
        .init(text: "no", bool: false), .init(text: "No", bool: false), .init(text: "NO", bool: false),
        .init(text: "off", bool: false), .init(text: "Off", bool: false), .init(text: "OFF", bool: false),
        .init(text: "tRUE"), .init(text: "y"), .init(text: "true", plain: false),
        .init(text: "0", int: 0, double: 0), .init(text: "-0", int: 0, double: 0), .init(text: "42", int: 42, double: 42),
        .init(text: "-7", int: -7, double: -7), .init(text: "+7", int: 7, double: 7),
        .init(text: "1_000", int: 1000, double: 1000), .init(text: "0x1F", int: 31, double: 31),
        .init(text: "0o17", int: 15), .init(text: "0b101", int: 5), .init(text: "017", int: 15, double: 17),
        .init(text: "-0x10", int: -16, double: -16), .init(text: "09", double: 9), .init(text: "1:30", int: 90, double: 90),
        .init(text: "-1:00:00", int: -3600, double: -3600), .init(text: "3", plain: false),
        .init(text: "3.5", double: 3.5), .init(text: "1e3", double: 1000), .init(text: "-2.5e-1", double: -0.25),
        .init(text: "1_000.5", double: 1000.5), .init(text: ".inf", double: .infinity), .init(text: "+.INF", double: .infinity),
        .init(text: "-.inf", double: -.infinity), .init(text: "3.5", plain: false), .init(text: "30s"), .init(text: "high"),
        .init(text: "9223372036854775808", double: 9_223_372_036_854_775_808),
    ]

    @Test("null, bool, whole number, number and text", arguments: cases)
    func resolves(_ testCase: ScalarCase) {
        let scalar = YAMLScalar(text: testCase.text, isPlain: testCase.plain, mark: .start)
        #expect(scalar.isNull == testCase.null)
        #expect(scalar.bool == testCase.bool)
        #expect(scalar.integer(Int.self) == testCase.int)
        #expect(scalar.floatingPoint(Double.self) == testCase.double)
        #expect(String.resolve(scalar) == testCase.text)
    }

    @Test("a NaN is a number", arguments: [".nan", ".NaN", ".NAN"])
    func notANumber(text: String) {
        #expect(YAMLScalar(text: text, isPlain: true, mark: .start).floatingPoint(Double.self)?.isNaN == true)
    }

    @Test("narrow and unsigned integers refuse what does not fit")
    func widths() {
        func scalar(_ text: String) -> YAMLScalar { YAMLScalar(text: text, isPlain: true, mark: .start) }
        #expect(scalar("255").integer(UInt8.self) == 255)
        #expect(scalar("256").integer(UInt8.self) == nil)
        #expect(scalar("-1").integer(UInt.self) == nil)
        #expect(scalar("-128").integer(Int8.self) == -128)
    }
}
