extension JSONValue {
    /// Parses a JSON document (RFC 8259) in one pass over its bytes, refusing anything beyond `limits`.
    /// `limits` has no default so that `parse(bytes)` always means the optional-returning convenience.
    public static func parse(_ bytes: [UInt8], limits: JSONLimits) throws(JSONParseError) -> JSONValue {
        guard bytes.count <= limits.maxBytes else {
            throw JSONParseError(.tooLarge(limit: limits.maxBytes), offset: limits.maxBytes)
        }
        var parser = JSONParser(bytes: bytes, limits: limits)
        return try parser.document()
    }
}

/// A single-pass parser whose open containers live on an explicit stack, so a deep document costs
/// neither call stack nor more than one look at each byte.
struct JSONParser {
    private enum Frame {
        case array([JSONValue])
        case object([String: JSONValue], key: String)
    }

    static let maxNumberLength = 64

    let bytes: [UInt8]
    let limits: JSONLimits
    var index = 0
    private var open: [Frame] = []

    init(bytes: [UInt8], limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    mutating func document() throws(JSONParseError) -> JSONValue {
        next: while true {
            guard var value = try valueOrOpen() else { continue }
            while let frame = open.popLast() {
                skipWhitespace()
                switch frame {
                case .array(var items):
                    items.append(value)
                    if consume(.comma) {
                        open.append(.array(items))
                        continue next
                    }
                    try expect(.closeBracket)
                    value = .array(items)
                case .object(var members, let key):
                    members[key] = value
                    if consume(.comma) {
                        open.append(.object(members, key: try memberKey()))
                        continue next
                    }
                    try expect(.closeBrace)
                    value = .object(members)
                }
            }
            skipWhitespace()
            guard index == bytes.count else { throw JSONParseError(.trailingData, offset: index) }
            return value
        }
    }

    /// A complete scalar or empty container, or nil after opening a container whose first element comes next.
    private mutating func valueOrOpen() throws(JSONParseError) -> JSONValue? {
        skipWhitespace()
        guard index < bytes.count else { throw unexpected() }
        switch bytes[index] {
        case .openBrace:
            try enterContainer()
            if consume(.closeBrace) { return .object([:]) }
            open.append(.object([:], key: try memberKey()))
            return nil
        case .openBracket:
            try enterContainer()
            if consume(.closeBracket) { return .array([]) }
            open.append(.array([]))
            return nil
        case .quote: return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw unexpected()
        }
    }

    private mutating func enterContainer() throws(JSONParseError) {
        guard open.count < limits.maxDepth else { throw JSONParseError(.tooDeep(limit: limits.maxDepth), offset: index) }
        index += 1
        skipWhitespace()
    }

    private mutating func memberKey() throws(JSONParseError) -> String {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == .quote else { throw unexpected() }
        let key = try string()
        skipWhitespace()
        try expect(.colon)
        return key
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for byte in expected {
            guard index < bytes.count, bytes[index] == byte else { throw unexpected() }
            index += 1
        }
    }

    private mutating func number() throws(JSONParseError) -> Double {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            if index < bytes.count, bytes[index].isDigit { throw JSONParseError(.malformedNumber, offset: start) }
        } else if !digits() {
            throw JSONParseError(.malformedNumber, offset: start)
        }
        if consume(UInt8(ascii: ".")), !digits() { throw JSONParseError(.malformedNumber, offset: start) }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            _ = consume(UInt8(ascii: "+")) || consume(UInt8(ascii: "-"))
            guard digits() else { throw JSONParseError(.malformedNumber, offset: start) }
        }
        guard index - start <= Self.maxNumberLength else {
            throw JSONParseError(.numberTooLong(limit: Self.maxNumberLength), offset: start)
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
            throw JSONParseError(.numberOutOfRange, offset: start)
        }
        return value
    }

    /// Skips a run of digits; false if there was none.
    private mutating func digits() -> Bool {
        let first = index
        while index < bytes.count, bytes[index].isDigit { index += 1 }
        return index > first
    }
}
