extension JSONValue {
    /// Reads an MQTT payload: the JSON it holds, nil for plain text, or why it was refused when it is
    /// too large or looks like JSON (starts with `{` or `[`) but is not acceptable.
    public static func payload(_ bytes: [UInt8], limits: JSONLimits = .payload) throws(JSONParseError) -> JSONValue? {
        do {
            return try parse(bytes, limits: limits)
        } catch {
            if case .tooLarge = error.reason { throw error }
            let first = bytes.first { !$0.isJSONWhitespace }
            guard first == .openBrace || first == .openBracket else { return nil }
            throw error
        }
    }

    /// `payload(_:)` for command and request topics: a refusal becomes the error the sender is shown.
    public static func commandPayload(_ bytes: [UInt8]) throws(CommandError) -> JSONValue? {
        do throws(JSONParseError) {
            return try payload(bytes)
        } catch {
            if case .tooLarge = error.reason { throw CommandError(error.message) }
            throw CommandError("payload is not valid JSON: \(error.message)")
        }
    }
}
