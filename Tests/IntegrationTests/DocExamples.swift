import Foundation
import TestSupport

/// One `mosquitto_pub` or `mosquitto_sub` line of a fenced `sh` block in README.md or docs/*.md.
struct DocExample: Sendable, CustomStringConvertible {
    /// The file, relative to the package root.
    let file: String
    /// The 1-based line number.
    let line: Int
    /// Which fenced block of the file the line is in (0-based).
    let block: Int
    /// The command as a reader would type it: the trailing `# comment` and a final `&` removed.
    let command: String
    /// Whether the line ends with `&` (run in the background while the next lines run).
    let background: Bool

    /// Whether the example listens (`mosquitto_sub`) rather than publishes.
    var listens: Bool { command.hasPrefix("mosquitto_sub") }

    var description: String { "\(file):\(line): \(command)\(background ? " &" : "")" }
}

/// Finding the examples in the docs.
enum DocExamples {
    /// README.md, then every docs/*.md by name, relative to the package root.
    static func files() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: BridgeProcess.packageRoot + "/docs")
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// Every example of every file, in document order; `misplaced` gets the `mosquitto_` lines of fenced blocks
    /// that are not `sh` (they would escape the test).
    static func all(misplaced: inout [String]) throws -> [DocExample] {
        try files().flatMap { file in
            let text = try String(contentsOfFile: BridgeProcess.packageRoot + "/" + file, encoding: .utf8)
            return extract(text, file: file, misplaced: &misplaced)
        }
    }

    /// The examples of one Markdown text.
    static func extract(_ markdown: String, file: String, misplaced: inout [String]) -> [DocExample] {
        var examples: [DocExample] = []
        var fence: String?
        var blocks = -1
        for (index, raw) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") {
                if fence == nil {
                    fence = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
                    blocks += 1
                } else {
                    fence = nil
                }
                continue
            }
            guard let language = fence, line.hasPrefix("mosquitto_pub") || line.hasPrefix("mosquitto_sub") else { continue }
            guard language == "sh" else {
                misplaced.append("\(file):\(index + 1) (in a ```\(language) block): \(line)")
                continue
            }
            var command = withoutComment(line)
            let background = command.hasSuffix("&") && !command.hasSuffix("&&")
            if background { command = String(command.dropLast()).trimmingCharacters(in: .whitespaces) }
            examples.append(DocExample(file: file, line: index + 1, block: blocks, command: command, background: background))
        }
        return examples
    }

    /// The line up to a `#` that starts a shell comment: outside quotes and at the start of a word.
    static func withoutComment(_ line: String) -> String {
        var quote: Character?
        var previous: Character = " "
        var kept = ""
        for character in line {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#", previous.isWhitespace {
                break
            }
            kept.append(character)
            previous = character
        }
        return kept.trimmingCharacters(in: .whitespaces)
    }
}
