import Yams

/// Replaces `${NAME}` in every scalar with the environment's value.
struct Interpolation {
    let environment: [String: String]
    let collector: IssueCollector

    func apply(to node: Node, path: [String]) -> Node {
        switch node {
        case .scalar(var scalar):
            guard scalar.string.contains("${") else { return node }
            scalar.string = substitute(scalar.string, path: path)
            return .scalar(scalar)
        case .mapping(let mapping):
            let pairs = mapping.map { pair in
                (Self.plainKey(pair.key), apply(to: pair.value, path: path + [pair.key.string ?? "?"]))
            }
            return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark))
        case .sequence(let sequence):
            let nodes = sequence.enumerated().map { apply(to: $0.element, path: path + [String($0.offset)]) }
            return .sequence(Node.Sequence(nodes, sequence.tag, sequence.style, sequence.mark))
        case .alias:
            return node
        }
    }

    /// Every key of this file is text. A quoted key such as `"3"` resolves to a string while Yams looks keys up
    /// as plain scalars (where `3` is a number), so the lookup would miss it; written plain, both agree.
    private static func plainKey(_ key: Node) -> Node {
        guard case .scalar(let scalar) = key, scalar.style != .plain else { return key }
        return .scalar(Node.Scalar(scalar.string, Tag(.implicit), .plain, scalar.mark))
    }

    private func substitute(_ text: String, path: [String]) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                collector.add(path, "unterminated ${ in \"\(text)\"")
                return text
            }
            let name = String(rest[start.upperBound..<end])
            if let value = environment[name] {
                result += value
            } else {
                collector.add(path, "environment variable \(name) is not set")
            }
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }
}
