/// Decoding helpers for the API's older payloads, where numbers sometimes arrive as strings.
extension KeyedDecodingContainer {
    /// A number that may be encoded as a JSON number or a numeric string.
    func lenientDouble(_ key: Key) -> Double? {
        if let value = try? decodeIfPresent(Double.self, forKey: key) { return value }
        if let text = try? decodeIfPresent(String.self, forKey: key) { return Double(text) }
        return nil
    }

    /// A whole number that may be encoded as a number or a string; values outside `range` (or not finite) are
    /// clamped, so a malformed answer can never trap the conversion.
    func lenientInt(_ key: Key, in range: ClosedRange<Int>) -> Int? {
        guard let value = lenientDouble(key), !value.isNaN else { return nil }
        return Int(min(max(value, Double(range.lowerBound)), Double(range.upperBound)).rounded())
    }

    /// A Boolean that may be encoded as a JSON Boolean, a number or a string.
    func lenientBool(_ key: Key) -> Bool? {
        if let value = try? decodeIfPresent(Bool.self, forKey: key) { return value }
        if let number = lenientDouble(key) { return number != 0 }
        if let text = try? decodeIfPresent(String.self, forKey: key) { return ["true", "yes", "on"].contains(text.lowercased()) }
        return nil
    }
}
