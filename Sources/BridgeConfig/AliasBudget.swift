import CYaml

/// Refuses YAML whose aliases would expand into a huge tree ("billion laughs") before it is composed.
///
/// Composing shares an anchored node between its aliases, but everything after it (interpolation,
/// decoding, even the duplicate-key check on alias keys) copies or hashes the expanded tree, which
/// nine levels of nine-fold aliases make a billion nodes. This reads libyaml's events once and
/// adds up each alias's expanded size, computed once per anchor, so the check is linear in the text.
enum AliasBudget {
    /// A config is a few hundred nodes; even hundreds of devices that each merge a dozen-node
    /// `<<: *defaults` block stay far below this, while 10,000 nodes still decode in a blink.
    static let maxExpandedNodes = 10_000

    /// A 1-based line and column, as in every config issue.
    struct Position: Equatable {
        var line: Int
        var column: Int
    }

    /// The position of the alias whose expansion crosses `limit`, or nil when the aliases fit (or the
    /// text does not parse, which composing reports with its own message).
    static func overrun(in yaml: String, limit: Int = maxExpandedNodes) -> Position? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(yaml.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var tally = Tally(limit: limit)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                switch tally.record(event) {
                case .more: continue
                case .done: return nil
                case .overrun(let mark): return mark
                }
            }
        }
    }
}

/// Expanded sizes of anchors and open collections while events stream past.
private struct Tally {
    enum Outcome { case more, done, overrun(AliasBudget.Position) }

    let limit: Int
    /// Nodes that aliases have added so far.
    var expanded = 0
    var anchorSizes: [String: Int] = [:]
    /// Collections not yet closed: their anchor and the nodes inside them so far, aliases expanded.
    var open: [(anchor: String?, size: Int)] = []

    init(limit: Int) { self.limit = limit }

    mutating func record(_ event: yaml_event_t) -> Outcome {
        switch event.type {
        case YAML_STREAM_END_EVENT:
            return .done
        case YAML_DOCUMENT_START_EVENT:
            anchorSizes = [:]
        case YAML_SCALAR_EVENT:
            close(anchor: Self.name(event.data.scalar.anchor), size: 1)
        case YAML_SEQUENCE_START_EVENT:
            open.append((Self.name(event.data.sequence_start.anchor), 1))
        case YAML_MAPPING_START_EVENT:
            open.append((Self.name(event.data.mapping_start.anchor), 1))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let collection = open.popLast() else { break }
            close(anchor: collection.anchor, size: collection.size)
        case YAML_ALIAS_EVENT:
            // An undefined alias is left for composing to report.
            guard let name = Self.name(event.data.alias.anchor), let size = anchorSizes[name] else { break }
            expanded += size
            if expanded > limit {
                return .overrun(.init(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1))
            }
            close(anchor: nil, size: size)
        default:
            break
        }
        return .more
    }

    /// A finished node: remembered under its anchor and counted into the collection holding it.
    private mutating func close(anchor: String?, size: Int) {
        if let anchor { anchorSizes[anchor] = size }
        if !open.isEmpty { open[open.count - 1].size += size }
    }

    private static func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
