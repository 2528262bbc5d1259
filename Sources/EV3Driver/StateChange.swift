import BridgeCore

/// The partial state that turns one published state into another, as the bridge merges it: changed values,
/// objects compared level by level, and `null` for keys that went away.
enum StateChange {
    /// What to send so that `old` merged with it becomes `new`; empty when nothing changed.
    static func between(_ old: [String: JSONValue], _ new: [String: JSONValue]) -> [String: JSONValue] {
        var change: [String: JSONValue] = [:]
        for (key, value) in new where old[key] != value {
            if case .object(let before)? = old[key], case .object(let after) = value {
                change[key] = .object(between(before, after))
            } else if value == .null, old[key] == nil {
                continue
            } else {
                change[key] = value
            }
        }
        for key in old.keys where new[key] == nil { change[key] = .null }
        return change
    }
}
