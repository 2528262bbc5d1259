import CYAML

/// Builds the tree as libyaml's events stream past, keeping each anchor's node and expanded size.
struct TreeBuilder {
    /// A sequence or mapping whose end has not come yet.
    private struct Open {
        var isMapping: Bool
        var mark: YAMLMark
        var anchor: String?
        /// The items; a mapping's keys and values alternate.
        var items: [YAMLNode] = []
        /// Nodes inside so far, itself included, aliases expanded.
        var size = 1
    }

    let aliasLimit: Int
    private(set) var root: YAMLNode?
    private var anchors: [String: (node: YAMLNode, size: Int)] = [:]
    /// Nodes that aliases have added so far.
    private var expanded = 0
    private var open: [Open] = []
    private var documents = 0

    init(aliasLimit: Int) { self.aliasLimit = aliasLimit }

    /// Takes one event; true at the end of the stream.
    mutating func take(_ event: yaml_event_t) throws(YAMLError) -> Bool {
        let mark = YAMLMark(event.start_mark)
        switch event.type {
        case YAML_STREAM_END_EVENT:
            return true
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            guard documents == 1 else {
                throw YAMLError(message: "YAML syntax: expected a single document, but found another document", mark: mark)
            }
        case YAML_ALIAS_EVENT:
            let name = Self.text(event.data.alias.anchor) ?? ""
            guard let anchored = anchors[name] else { throw YAMLError(message: "YAML syntax: found undefined alias", mark: mark) }
            expanded += anchored.size
            guard expanded <= aliasLimit else {
                throw YAMLError(
                    message: "YAML aliases expand to more than \(aliasLimit) nodes (an alias bomb?); refusing to expand further",
                    mark: mark)
            }
            add(anchored.node, size: anchored.size, anchor: nil)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            let node = YAMLNode.scalar(YAMLScalar(text: text, isPlain: scalar.style == YAML_PLAIN_SCALAR_STYLE, mark: mark))
            add(node, size: 1, anchor: Self.text(scalar.anchor))
        case YAML_SEQUENCE_START_EVENT:
            try push(Open(isMapping: false, mark: mark, anchor: Self.text(event.data.sequence_start.anchor)))
        case YAML_MAPPING_START_EVENT:
            try push(Open(isMapping: true, mark: mark, anchor: Self.text(event.data.mapping_start.anchor)))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let done = open.popLast() else { break }
            let node = done.isMapping ? try Self.mapping(done.items, at: done.mark) : .sequence(done.items, done.mark)
            add(node, size: done.size, anchor: done.anchor)
        default:
            break
        }
        return false
    }

    private mutating func push(_ collection: Open) throws(YAMLError) {
        guard open.count < YAMLComposer.maxDepth else {
            throw YAMLError(message: "YAML nesting deeper than \(YAMLComposer.maxDepth) levels", mark: collection.mark)
        }
        open.append(collection)
    }

    /// A finished node: remembered under its anchor, and put in the collection holding it (or made the root).
    private mutating func add(_ node: YAMLNode, size: Int, anchor: String?) {
        if let anchor { anchors[anchor] = (node, size) }
        guard !open.isEmpty else {
            root = node
            return
        }
        open[open.count - 1].items.append(node)
        open[open.count - 1].size += size
    }

    private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
