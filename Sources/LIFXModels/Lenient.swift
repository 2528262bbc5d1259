/// Decoding helpers for the API's older payloads, where numbers sometimes arrive as strings.
extension KeyedDecodingContainer {
    /// A number that may be encoded as a JSON number or a numeric string.
    func lenientDouble(_ key: Key) -> Double? {
        if let value = try? decodeIfPresent(Double.self, forKey: key) { return value }
        if let text = try? decodeIfPresent(String.self, forKey: key) { return Double(text) }
        return nil
    }

    /// A Boolean that may be encoded as a JSON Boolean, a number or a string.
    func lenientBool(_ key: Key) -> Bool? {
        if let value = try? decodeIfPresent(Bool.self, forKey: key) { return value }
        if let number = lenientDouble(key) { return number != 0 }
        if let text = try? decodeIfPresent(String.self, forKey: key) { return ["true", "yes", "on"].contains(text.lowercased()) }
        return nil
    }
}
