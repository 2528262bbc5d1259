import TestSupport
import BridgeConfig
import Testing

/// Expects `yaml` to be refused with exactly one issue: at `line` and `column`, on `keyPath`, its message
/// containing `message`.
func expectOneIssue(
    _ yaml: String, file: String, line: Int, column: Int, keyPath: String, message: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        _ = try ConfigLoader.parse(yaml: yaml, file: file)
        Issue.record("\(yaml) was accepted", sourceLocation: sourceLocation)
    } catch {
        let issue = error.issues.first
        #expect(error.issues.count == 1, "\(error)", sourceLocation: sourceLocation)
        #expect(issue?.keyPath == keyPath, "\(error)", sourceLocation: sourceLocation)
        #expect(issue?.message.contains(message) == true, "\(error)", sourceLocation: sourceLocation)
        #expect(issue.map { ($0.line, $0.column) } ?? (0, 0) == (line, column), "\(error)", sourceLocation: sourceLocation)
    }
}
