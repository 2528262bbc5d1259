/// A 1-based line and column in a YAML text, as every config issue shows it.
public struct YAMLMark: Sendable, Equatable {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// A mark at a line and column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The start of the text, where problems without a place of their own are reported.
    public static let start = YAMLMark(line: 1, column: 1)
}

/// A scalar as written: its text, whether it was plain (unquoted, so it may be a number, a bool or null), where.
public struct YAMLScalar: Sendable {
    /// The text, quotes and escapes resolved.
    public var text: String
    /// Written without quotes or block style: only plain scalars resolve to null, bools and numbers.
    public var isPlain: Bool
    /// Where the scalar starts.
    public var mark: YAMLMark

    /// A scalar with its text, style and place.
    public init(text: String, isPlain: Bool, mark: YAMLMark) {
        self.text = text
        self.isPlain = isPlain
        self.mark = mark
    }
}

/// One entry of a mapping, in the order written.
public struct YAMLPair: Sendable {
    /// The key, a scalar in every config.
    public var key: YAMLNode
    /// The value.
    public var value: YAMLNode
}

/// A composed YAML node: aliases already stand for their anchors' nodes, merge keys are already merged.
public enum YAMLNode: Sendable {
    /// A single value.
    case scalar(YAMLScalar)
    /// The pairs in the order written, merged pairs after them; the mark is where the mapping starts.
    case mapping([YAMLPair], YAMLMark)
    /// The items and where the sequence starts.
    case sequence([YAMLNode], YAMLMark)

    /// Where the node starts.
    public var mark: YAMLMark {
        switch self {
        case .scalar(let scalar): scalar.mark
        case .mapping(_, let mark), .sequence(_, let mark): mark
        }
    }

    /// The scalar, if the node is one.
    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = self { scalar } else { nil }
    }

    /// The pairs, if the node is a mapping.
    public var pairs: [YAMLPair]? {
        if case .mapping(let pairs, _) = self { pairs } else { nil }
    }

    /// The items, if the node is a sequence.
    public var items: [YAMLNode]? {
        if case .sequence(let items, _) = self { items } else { nil }
    }

    /// The value of the first key whose text is `key`, quoted or not.
    public subscript(key: String) -> YAMLNode? {
        pairs?.first { $0.key.scalar?.text == key }?.value
    }
}
