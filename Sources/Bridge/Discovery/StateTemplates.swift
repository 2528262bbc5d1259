import BridgeCore

/// Jinja templates that read one value of a device's JSON state, or write one into a `/set` payload, by its
/// path of keys (`["motor_a", "speed"]`; one key for a top-level property).
enum StateTemplates {
    /// Reads the value at `path`, or `missing` when any key on the way is absent or not an object. Guarded with
    /// `is defined`, because Home Assistant logs a warning for every absent key it renders (and an error for a
    /// key under an absent one) on each state message. Keys are read with brackets, so that a key named like a
    /// dict method (`items`, `values`) reads the value and not the method.
    static func value(_ path: [String], missing: String = "None") -> String {
        let accesses = path.indices.map { index in
            "value_json" + path[...index].map { "['\($0)']" }.joined()
        }
        let guards = accesses.map { "\($0) is defined" }.joined(separator: " and ")
        return "{{ \(accesses.last ?? "value_json") if \(guards) else '\(missing)' }}"
    }

    /// The value template of an `event` entity: the whole message (`event_type` and the data, which Home Assistant
    /// keeps as the event's attributes) when it is an occurrence of `property`, and an empty text otherwise, which
    /// Home Assistant drops without an event and without a warning (any other text would log one). Guarded so that
    /// a message that is not a JSON object logs nothing either.
    static func event(_ property: String) -> String {
        "{{ value_json | tojson if value_json is mapping and value_json['property'] is defined"
            + " and value_json['property'] == '\(property)' else '' }}"
    }

    /// A command template that sends Home Assistant's value nested under `path`:
    /// `{"motor_a": {"speed": {{ value | tojson }}}}`.
    static func command(_ path: [String]) -> String {
        let opening = path.map { "{\(JSONValue.string($0).jsonString): " }.joined()
        return opening + "{{ value | tojson }}" + String(repeating: "}", count: path.count)
    }

    /// The JSON payload that sets `value` at `path`: `{"motor_a": {"stop": "stop"}}`.
    static func payload(_ path: [String], _ value: JSONValue) -> String {
        path.reversed().reduce(value) { inner, key in .object([key: inner]) }.jsonString
    }

    /// Whether a key can stand in templates and topics as it is: letters, digits, `_` and `-`.
    static func isPlain(_ key: String) -> Bool {
        !key.isEmpty && key.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
    }
}
