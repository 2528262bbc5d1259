import Foundation
import Support

/// A JSON value whose objects keep key order, so responses match the documented layout.
enum JSON: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// Looks a key up in an object; nil for other values or a missing key.
    subscript(key: String) -> JSON? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    /// Wraps an optional number, mapping nil to `null`.
    static func number(_ value: Double?) -> JSON {
        value.map(JSON.double) ?? .null
    }

    /// Serialises compactly.
    func rendered() -> String {
        var out = ""
        out.reserveCapacity(256)
        write(to: &out)
        return out
    }

    /// Appends the serialised value, avoiding intermediate strings for large lists.
    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value): out += value.isFinite ? String(value) : "null"
        case .string(let value): JSON.writeString(value, to: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out += "," }
                JSON.writeString(pair.0, to: &out)
                out += ":"
                pair.1.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20:
                out += "\\u00" + Hex.byte(UInt8(s.value))
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSON: Decodable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes any JSON; numbers become doubles and object keys are sorted for determinism.
    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            let keys = keyed.allKeys.sorted { $0.stringValue < $1.stringValue }
            self = .object(try keys.map { ($0.stringValue, try keyed.decode(JSON.self, forKey: $0)) })
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var items: [JSON] = []
            while !unkeyed.isAtEnd { items.append(try unkeyed.decode(JSON.self)) }
            self = .array(items)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Double.self) {
            self = .double(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }
}
