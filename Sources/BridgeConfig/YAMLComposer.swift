import CYAML

/// A YAML text that cannot be composed, with the place to point at.
public struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message as a config issue shows it, e.g. `YAML syntax: …` or `duplicate key qos`; it never quotes the text.
    public var message: String
    /// Where the problem is.
    public var mark: YAMLMark

    /// An error with its message and place.
    public init(message: String, mark: YAMLMark) {
        self.message = message
        self.mark = mark
    }

    /// `line:column: message`.
    public var description: String { "\(mark.line):\(mark.column): \(message)" }
}

/// Composes YAML text into nodes from libyaml's events: anchors and aliases resolved, merge keys merged, duplicate
/// keys refused, and aliases that would expand into a huge tree ("billion laughs") refused as they are read.
public enum YAMLComposer {
    /// A config is a few hundred nodes; even hundreds of devices that each merge a dozen-node `<<: *defaults` block
    /// stay far below this, while 10,000 nodes still decode in a blink.
    public static let maxExpandedNodes = 10_000
    /// Nesting no config needs; deeper text is refused before decoding walks it.
    static let maxDepth = 64

    /// The single document's root, or nil for a text with no document (empty, or comments only).
    public static func compose(_ text: String, aliasLimit: Int = maxExpandedNodes) throws(YAMLError) -> YAMLNode? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw YAMLError(message: "YAML: out of memory", mark: .start) }
        defer { yaml_parser_delete(&parser) }
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(text.utf8.count, 1))
        defer { bytes.deallocate() }
        let count = bytes.initialize(fromContentsOf: text.utf8)
        yaml_parser_set_input_string(&parser, bytes.baseAddress, count)
        var builder = TreeBuilder(aliasLimit: aliasLimit)
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { throw syntaxError(parser) }
            defer { yaml_event_delete(&event) }
            if try builder.take(event) { return builder.root }
        }
    }

    /// libyaml's problem and context at its problem mark; a reader error (bad encoding) at its byte.
    private static func syntaxError(_ parser: yaml_parser_t) -> YAMLError {
        let problem = parser.problem.map { String(cString: $0) } ?? "cannot be parsed"
        switch parser.error {
        case YAML_READER_ERROR:
            return YAMLError(message: "YAML: \(problem) at byte \(parser.problem_offset)", mark: .start)
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR:
            let detail = parser.context.map { "\(problem) \(String(cString: $0))" } ?? problem
            return YAMLError(message: "YAML syntax: \(detail)", mark: YAMLMark(parser.problem_mark))
        default:
            return YAMLError(message: "YAML: the file cannot be read (\(problem))", mark: .start)
        }
    }
}

extension YAMLMark {
    /// libyaml's 0-based mark, 1-based.
    init(_ mark: yaml_mark_t) { self.init(line: Int(mark.line) + 1, column: Int(mark.column) + 1) }
}
