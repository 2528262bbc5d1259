/// Replaces `${NAME}` in every scalar with the environment's value.
struct Interpolation {
    let environment: [String: String]
    let collector: IssueCollector

    func apply(to node: YAMLNode, path: [String]) -> YAMLNode {
        switch node {
        case .scalar(var scalar):
            guard scalar.text.contains("${") else { return node }
            scalar.text = substitute(scalar.text, path: path)
            return .scalar(scalar)
        case .mapping(let pairs, let mark):
            let replaced = pairs.map { pair in
                YAMLPair(key: pair.key, value: apply(to: pair.value, path: path + [pair.key.scalar?.text ?? "?"]))
            }
            return .mapping(replaced, mark)
        case .sequence(let items, let mark):
            return .sequence(items.enumerated().map { apply(to: $0.element, path: path + [String($0.offset)]) }, mark)
        }
    }

    private func substitute(_ text: String, path: [String]) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.firstRange(of: "${") {
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
