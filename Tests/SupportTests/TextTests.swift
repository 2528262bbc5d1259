import Foundation
import Support
import Testing

/// The text helpers that stand in for full Foundation's, checked against it.
@Suite struct TextTests {
    @Test(arguments: ["", "  ", "a", " a ", "\t a b \n", "\u{00A0}x\u{2003}", "__a_b__", "ünï ", "\r\n"])
    func trimmingAsFoundationDoes(_ text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text.trimming { $0 == "_" } == text.trimmingCharacters(in: ["_"]))
    }

    @Test(arguments: ["config.yaml", "/etc/things2mqtt/config.yaml", "/config.yaml", "a/b", "./c.yaml"])
    func folderAsNSStringGivesIt(_ path: String) {
        #expect(PathText.folder(of: path) == (path as NSString).deletingLastPathComponent)
    }

    @Test func folderOfAPathEndingInASlash() {
        #expect(PathText.folder(of: "/a/b/") == "/a/b")
    }

    @Test(arguments: [0.0, 1, 2.5, 2.25, 2.05, 10, 0.04, 0.05, -1.5, -0.04, 1234.5678, 59.96])
    func decimalsAsFoundationFormatsThem(_ value: Double) {
        for digits in 0...2 {
            let style = FloatingPointFormatStyle<Double>(locale: Locale(identifier: "en_US_POSIX")).precision(.fractionLength(0...digits)).grouping(.never)
            #expect(DecimalText.string(value, maxFractionDigits: digits) == value.formatted(style), "\(value), \(digits)")
        }
    }
}
