import Support

/// Writes JSON beside `JSONParser`: compact, keys sorted so identical documents give identical bytes, whole
/// numbers without a fraction (`128`, never `128.0`), slashes unescaped, and a non-finite number as `null`.
/// Every payload the bridge publishes is written here, straight into bytes, without Foundation's encoder.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    /// Appends `value`.
    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let number): write(number)
        case .string(let text): write(text)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            // Sorted as pairs, so no key is hashed again to find its value.
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(member.key)
                bytes.append(UInt8(ascii: ":"))
                write(member.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func write(_ number: Double) {
        guard number.isFinite else { return append("null") }
        if number.rounded() == number, abs(number) < 1e15 {
            // At most 15 digits: a small string, kept inline without a heap allocation.
            append(String(Int64(number)))
        } else {
            append(number.description)
        }
    }

    private mutating func write(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0..<0x20: append("\\u00" + Hex.byte(byte))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
}

extension JSONValue {
    /// The compact JSON bytes, keys sorted.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        writer.write(self)
        return writer.bytes
    }

    /// The compact JSON text, keys sorted.
    public var jsonString: String { String(decoding: jsonBytes, as: UTF8.self) }
}
