import BridgeConfig
import Testing

/// A YAML text and the error composing it must give.
struct ComposeErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var yaml: String
    var message: String
    var line: Int
    var column: Int
    var testDescription: String { name }
}

@Suite("The config's YAML composer")
struct YAMLComposerTests {
    static let errors: [ComposeErrorCase] = [
        .init(name: "duplicate key, at the mapping", yaml: "mqtt:\n  qos: 1\n  qos: 2\n", message: "duplicate key qos", line: 2, column: 3),
        .init(
            name: "duplicate keys, sorted", yaml: "a: 1\nz: 1\nb: 2\nz: 2\nb: 3\n", message: "duplicate key b, z", line: 1, column: 1),
        .init(
            name: "a quoted and a plain key with the same text", yaml: "ports:\n  \"3\": color\n  3: touch\n",
            message: "duplicate key 3", line: 2, column: 3),
        .init(name: "undefined alias", yaml: "a: 1\nb: *nowhere\n", message: "YAML syntax: found undefined alias", line: 2, column: 4),
        .init(
            name: "unclosed flow sequence", yaml: "a: [1, 2\nb: 3\n",
            message: "YAML syntax: did not find expected ',' or ']' while parsing a flow sequence", line: 2, column: 2),
        .init(
            name: "tab indentation", yaml: "a:\n\tb: 1\n",
            message: "YAML syntax: found character that cannot start any token while scanning for the next token",
            line: 2, column: 1),
        .init(
            name: "a second document", yaml: "a: 1\n---\nb: 2\n",
            message: "YAML syntax: expected a single document, but found another document", line: 2, column: 1),
        .init(
            name: "merging a scalar", yaml: "a: &a 1\nb:\n  <<: *a\n", message: "YAML: a merge key (<<) takes a mapping or a list of mappings",
            line: 1, column: 4),
        .init(
            name: "nesting too deep", yaml: String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "\n",
            message: "YAML nesting deeper than 64 levels", line: 1, column: 65),
    ]

    @Test("errors give libyaml's problem or the composer's, at a 1-based line and column", arguments: errors)
    func composeError(_ testCase: ComposeErrorCase) {
        #expect(throws: YAMLError(message: testCase.message, mark: YAMLMark(line: testCase.line, column: testCase.column))) {
            try YAMLComposer.compose(testCase.yaml)
        }
    }

    @Test("a text with no document has no root")
    func empty() throws {
        #expect(try YAMLComposer.compose("") == nil)
        #expect(try YAMLComposer.compose("# only a comment\n") == nil)
    }

    @Test("scalars keep their text, their style and where they start")
    func scalars() throws {
        let root = try #require(try YAMLComposer.compose("plain: yes\nquoted: 'yes'\nblock: |\n  two\n  lines\n"))
        let plain = try #require(root["plain"]?.scalar)
        #expect(plain.text == "yes" && plain.isPlain && plain.mark == YAMLMark(line: 1, column: 8))
        let quoted = try #require(root["quoted"]?.scalar)
        #expect(quoted.text == "yes" && !quoted.isPlain && quoted.mark == YAMLMark(line: 2, column: 9))
        #expect(root["block"]?.scalar?.text == "two\nlines\n")
        #expect(root["block"]?.scalar?.isPlain == false)
        #expect(root.pairs?.map { $0.key.scalar?.text } == ["plain", "quoted", "block"])
        #expect(root.mark == YAMLMark(line: 1, column: 1))
    }

    @Test("an alias stands for its anchor's node, with the anchor's place")
    func aliases() throws {
        let root = try #require(try YAMLComposer.compose("a: &v [1, 2]\nb: *v\nc: &s text\nd: *s\n"))
        #expect(root["b"]?.items?.compactMap { $0.scalar?.text } == ["1", "2"])
        #expect(root["b"]?.mark == YAMLMark(line: 1, column: 4), "where the anchor is written")
        #expect(root["d"]?.scalar?.text == "text")
    }

    @Test("merge keys: written keys win, then the earlier merged mapping")
    func merges() throws {
        let yaml = """
            x: &x {a: 1, b: 1}
            y: &y {b: 2, c: 2}
            one:
              <<: *x
              b: 3
            two:
              <<: [*x, *y]
              d: 4
            nested:
              <<: *x
              inner:
                <<: *y
                c: 5

            """
        let root = try #require(try YAMLComposer.compose(yaml))
        func texts(_ node: YAMLNode?) -> [String] {
            node?.pairs?.map { "\($0.key.scalar?.text ?? "?")=\($0.value.scalar?.text ?? "…")" } ?? []
        }
        #expect(texts(root["one"]) == ["b=3", "a=1"])
        #expect(texts(root["two"]) == ["d=4", "a=1", "b=1", "c=2"])
        #expect(texts(root["nested"]) == ["inner=…", "a=1", "b=1"])
        #expect(texts(root["nested"]?["inner"]) == ["c=5", "b=2"])
        // A merged value points where it was written.
        #expect(root["one"]?["a"]?.mark == YAMLMark(line: 1, column: 11))
    }

    @Test("a quoted <<, or a merged key also written, is an ordinary key")
    func notMerges() throws {
        let root = try #require(try YAMLComposer.compose("x: &x {a: 1}\nm:\n  '<<': *x\n  a: 2\n"))
        #expect(root["m"]?["<<"]?["a"]?.scalar?.text == "1")
        #expect(root["m"]?["a"]?.scalar?.text == "2")
    }

    @Test("aliases are counted as they expand, each at its anchor's size")
    func aliasBudget() throws {
        let yaml = "a: &a [1, 2, 3]\nb: [*a, *a, *a]\n"
        // Each alias of `a` adds 4 nodes: the sequence and its 3 items.
        #expect(try YAMLComposer.compose(yaml, aliasLimit: 12) != nil)
        #expect(throws: YAMLError(
            message: "YAML aliases expand to more than 11 nodes (an alias bomb?); refusing to expand further",
            mark: YAMLMark(line: 2, column: 13))) {
            try YAMLComposer.compose(yaml, aliasLimit: 11)
        }
    }
}
