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
}
