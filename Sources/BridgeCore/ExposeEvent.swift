/// One occurrence of an `event` expose (a button press, a dimmer turn): which expose, which of its types, and
/// any data that came with it. A driver reports it with `DeviceEvent.event`; it never becomes state.
public struct ExposeEvent: Sendable, Equatable {
    /// The keys leading to the expose: `["button"]`, or `["buttons", "up"]` for an event inside a composite.
    public var path: [String]
    /// One of the expose's event types (`press`, `rotate_left`).
    public var type: String
    /// Extra fields published with the occurrence (`["steps": 3]`), which Home Assistant keeps as the event's
    /// attributes; `event_type`, `property` and `action` are set by the bridge.
    public var data: [String: JSONValue]

    /// An occurrence of the top-level event expose `property`.
    public init(_ property: String, type: String, data: [String: JSONValue] = [:]) {
        self.init(path: [property], type: type, data: data)
    }

    /// An occurrence of the event expose at `path` (inside composites).
    public init(path: [String], type: String, data: [String: JSONValue] = [:]) {
        self.path = path
        self.type = type
        self.data = data
    }

    /// The expose's path as the published payload names it: `button`, `buttons.up`.
    public var property: String { path.joined(separator: ".") }

    /// Path and type in one word, shaped like zigbee2mqtt's `action` values (`<button>_<action>`): `button_press`,
    /// `buttons_up_long_press`, for scripts that switch on one value.
    public var action: String { (path + [type]).joined(separator: "_") }

    /// The payload published on `<alias>/event`: the data, then `event_type`, `property` and `action`, which win
    /// over data keys of the same name.
    public var payload: [String: JSONValue] {
        var payload = data
        payload["event_type"] = .string(type)
        payload["property"] = .string(property)
        payload["action"] = .string(action)
        return payload
    }
}

extension DeviceDescriptor {
    /// Why the bridge cannot publish an occurrence for this device, or nil if it names one of its `event`
    /// exposes and one of that expose's types.
    public func problem(with event: ExposeEvent) -> String? {
        let events = leaves.filter { $0.expose.kind == .event }
        guard let leaf = events.first(where: { $0.path == event.path }) else {
            let names = events.isEmpty ? "none" : events.map(\.dottedPath).joined(separator: ", ")
            return "\(event.property) is not an event of this device (events: \(names))"
        }
        guard leaf.expose.values.contains(event.type) else {
            let types = leaf.expose.values.joined(separator: ", ")
            return "\(event.property) has no event type \"\(event.type)\" (types: \(types))"
        }
        return nil
    }
}
