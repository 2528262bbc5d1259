import Foundation

/// Typed access to a request body's fields that collects every problem for a single 422.
///
/// Form bodies deliver everything as strings, so numbers and booleans are also
/// accepted in string form.
struct Parameters {
    private let fields: [(String, JSON)]
    private let prefix: String
    private var consumed: Set<String> = []
    private(set) var errors: [ParameterError] = []

    /// Wraps an object; `prefix` qualifies field names in errors, e.g. "states[0].".
    init(_ object: [(String, JSON)], prefix: String = "") {
        self.fields = object
        self.prefix = prefix
    }

    /// Parses a raw body by content type; empty bodies are an empty object.
    static func parseBody(_ body: String, contentType: String?) throws(APIError) -> [(String, JSON)] {
        let text = body.trimmingWhitespace()
        if text.isEmpty { return [] }
        let type = contentType?.lowercased() ?? ""
        // Clients often post JSON with curl's default form type, so the body's shape wins over the header.
        let looksLikeJSON = text.hasPrefix("{") || text.hasPrefix("[")
        if !looksLikeJSON, !type.contains("json") {
            return FormDecoding.fields(text).map { ($0.0, JSON.string($0.1)) }
        }
        guard let value = try? JSONDecoder().decode(JSON.self, from: Data(text.utf8)) else {
            throw APIError(400, "Request body is not valid JSON")
        }
        guard case .object(let pairs) = value else {
            throw APIError(422, "Request body must be a JSON object")
        }
        return pairs
    }

    /// Raw value of a field, marking it as known.
    mutating func raw(_ name: String) -> JSON? {
        consumed.insert(name)
        guard let value = fields.first(where: { $0.0 == name })?.1 else { return nil }
        if case .null = value { return nil }
        return value
    }

    /// Records a problem with a field.
    mutating func fail(_ name: String, _ message: String) {
        errors.append(ParameterError(field: prefix + name, message: message))
    }

    /// A number within `range`, or nil when absent or invalid.
    mutating func number(_ name: String, in range: ClosedRange<Double>? = nil) -> Double? {
        guard let value = raw(name) else { return nil }
        let number: Double? = switch value {
        case .double(let d): d
        case .int(let i): Double(i)
        case .string(let s): Double(s.trimmingWhitespace())
        default: nil
        }
        guard let number, number.isFinite else {
            fail(name, "must be a number")
            return nil
        }
        if let range, !range.contains(number) {
            fail(name, "must be between \(range.lowerBound.compact) and \(range.upperBound.compact)")
            return nil
        }
        return number
    }

    /// A boolean (true/false, or "true"/"false" in forms).
    mutating func bool(_ name: String) -> Bool? {
        switch raw(name) {
        case nil: return nil
        case .bool(let b): return b
        case .string("true"): return true
        case .string("false"): return false
        default:
            fail(name, "must be true or false")
            return nil
        }
    }

    /// A string, optionally restricted to `allowed` values.
    mutating func string(_ name: String, allowed: [String]? = nil) -> String? {
        guard let value = raw(name) else { return nil }
        guard case .string(let text) = value else {
            fail(name, allowed.map { "must be one of \($0.joined(separator: ", "))" } ?? "must be a string")
            return nil
        }
        if let allowed, !allowed.contains(text) {
            fail(name, "must be one of \(allowed.joined(separator: ", "))")
            return nil
        }
        return text
    }

    /// `"on"`/`"off"` as a boolean.
    mutating func power(_ name: String = "power") -> Bool? {
        string(name, allowed: ["on", "off"]).map { $0 == "on" }
    }

    /// A colour string parsed per lifx.md §8.
    mutating func color(_ name: String) -> ParsedColor? {
        guard let text = string(name) else { return nil }
        do {
            return try ColorString.parse(text)
        } catch {
            fail(name, "is invalid: \(error.message)")
            return nil
        }
    }

    /// An array of strings; forms may send a comma-separated string instead.
    mutating func stringList(_ name: String) -> [String]? {
        switch raw(name) {
        case nil: return nil
        case .string(let text):
            return text.split(separator: ",").map { String($0).trimmingWhitespace() }
        case .array(let items):
            let strings = items.compactMap { item -> String? in
                if case .string(let s) = item { s } else { nil }
            }
            if strings.count == items.count { return strings }
            fail(name, "must be a list of strings")
            return nil
        default:
            fail(name, "must be a list of strings")
            return nil
        }
    }

    /// Fields nobody asked for, reported as a `warnings` entry like the real API.
    var unknown: [(String, JSON)] {
        fields.filter { !consumed.contains($0.0) }
    }

    /// Throws a 422 if any field was invalid.
    func validate() throws(APIError) {
        if !errors.isEmpty { throw APIError(.validation(errors)) }
    }
}
