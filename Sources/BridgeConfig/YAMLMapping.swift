extension TreeBuilder {
    /// A mapping from its alternating keys and values: merge keys (`<<: *x`, `<<: [*a, *b]`) merged after the
    /// written pairs, which win, as does an earlier merged mapping over a later one; a key written twice refused.
    static func mapping(_ items: [YAMLNode], at mark: YAMLMark) throws(YAMLError) -> YAMLNode {
        var pairs: [YAMLPair] = []
        var merged: [[YAMLPair]] = []
        for index in stride(from: 0, to: items.count - 1, by: 2) {
            let key = items[index], value = items[index + 1]
            guard let scalar = key.scalar, scalar.isPlain, scalar.text == "<<" else {
                pairs.append(YAMLPair(key: key, value: value))
                continue
            }
            switch value {
            case .mapping(let sources, _):
                merged.append(sources)
            case .sequence(let sources, _):
                for source in sources {
                    guard let sourcePairs = source.pairs else { throw mergeError(at: source.mark) }
                    merged.append(sourcePairs)
                }
            case .scalar:
                throw mergeError(at: value.mark)
            }
        }
        var seen = Set<String>()
        var duplicates = Set<String>()
        for pair in pairs {
            guard let text = pair.key.scalar?.text else { continue }
            if !seen.insert(text).inserted { duplicates.insert(text) }
        }
        // At the mapping, not quoting it: its text may hold a password or a token.
        guard duplicates.isEmpty else {
            throw YAMLError(message: "duplicate key \(duplicates.sorted().joined(separator: ", "))", mark: mark)
        }
        for source in merged {
            for pair in source {
                if let text = pair.key.scalar?.text, !seen.insert(text).inserted { continue }
                pairs.append(pair)
            }
        }
        return .mapping(pairs, mark)
    }

    private static func mergeError(at mark: YAMLMark) -> YAMLError {
        YAMLError(message: "YAML: a merge key (<<) takes a mapping or a list of mappings", mark: mark)
    }
}
