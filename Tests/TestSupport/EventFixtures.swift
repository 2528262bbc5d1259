public import BridgeCore

/// A device whose events are occurrences rather than state, as a BTHome remote's buttons and dimmer or a
/// brick's buttons are; shared by core, discovery and broker tests.
extension Fixtures {
    /// The event types of a BTHome button.
    public static let buttonTypes = ["press", "double_press", "triple_press", "long_press", "long_double_press"]

    /// A remote with a top-level button and dimmer, two buttons inside a composite (events next to a state
    /// value there), and a battery reading.
    public static func remote(_ id: String = "ble_a4c138112233") -> DeviceDescriptor {
        DeviceDescriptor(
            id: DeviceID(id)!, kind: "sensor", manufacturer: "Shelly", model: "BLU Button", modelID: "SBBT-002C",
            connections: [["mac", "a4:c1:38:11:22:33"]], label: "Remote",
            exposes: [
                .event("button", name: "Button", types: buttonTypes, deviceClass: "button"),
                .event("dimmer", name: "Dimmer", types: ["rotate_left", "rotate_right"]),
                .composite(
                    "buttons", name: "Button",
                    features: [
                        .event("up", name: "Up", types: ["press", "long_press"], deviceClass: "button"),
                        .event("down", name: "Down", types: ["press", "long_press"], deviceClass: "button"),
                        .numeric("presses", name: "Presses", stateClass: "total_increasing"),
                    ]),
                .numeric("battery", name: "Battery", unit: "%", range: 0...100, deviceClass: "battery", category: .diagnostic),
            ])
    }

    /// A state with a value for every state (not event) leaf of `remote()`.
    public static let remoteState: [String: JSONValue] = ["buttons": ["presses": 12], "battery": 90]
}
