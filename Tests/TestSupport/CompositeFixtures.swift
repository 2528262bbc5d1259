public import BridgeCore

/// Devices whose state nests values under composite exposes, as bricks (motors, sensors keyed by port) and
/// GATT data (values keyed by characteristic UUID) will; shared by parser, discovery and schema tests.
extension Fixtures {
    /// A motor with every leaf kind: a settable speed, a read-only position, a brake switch, a mode select, a
    /// label text, a running flag and a stop button.
    public static let motor = Expose.composite(
        "motor_a", name: "Motor A",
        features: [
            .numeric("speed", name: "Speed", access: [.state, .set], unit: "%", range: -100...100, step: 1),
            .numeric("position", name: "Position", unit: "°", stateClass: "measurement"),
            .binary("brake", name: "Brake", access: [.state, .set], category: .config),
            .enumeration("mode", name: "Mode", values: ["coast", "brake", "hold"], access: [.state, .set]),
            .text("label", name: "Label", access: [.state, .set]),
            .binary("running", name: "Running", deviceClass: "running"),
            .enumeration("type", name: "Type", values: ["large", "medium", "none"]),
            .action("stop", name: "Stop", payload: "stop", icon: "mdi:stop"),
        ])

    /// A brick-like device: a motor, read-only buttons, sensors keyed by port (a composite in a composite, with a
    /// settable mode), raw GATT values keyed by UUID as diagnostics, and a flat battery sensor.
    public static func brick(_ id: String = "ev3_0016535d7e2d") -> DeviceDescriptor {
        DeviceDescriptor(
            id: DeviceID(id)!, kind: "brick", manufacturer: "LEGO", model: "EV3", modelID: "ev3",
            serialNumber: "0016535d7e2d", softwareVersion: "V1.10E", label: "EV3",
            exposes: [
                motor,
                .composite(
                    "buttons", name: "Button",
                    features: [.binary("up", name: "Up"), .binary("enter", name: "Enter")]),
                .composite(
                    "sensors", name: "Sensor",
                    features: [
                        .composite(
                            "port_1", name: "Port 1",
                            features: [
                                .numeric("value", name: "Value", stateClass: "measurement"),
                                .enumeration("mode", name: "Mode", values: ["reflect", "ambient", "color"], access: [.state, .set]),
                            ])
                    ]),
                .composite(
                    "gatt", name: "GATT", features: [.text("00002a19-0000-1000-8000-00805f9b34fb", name: "2A19")],
                    category: .diagnostic, enabledByDefault: false),
                .numeric("battery", name: "Battery", unit: "%", range: 0...100, deviceClass: "battery", category: .diagnostic),
            ])
    }

    /// A state with a value for every leaf of `brick()`.
    public static let brickState: [String: JSONValue] = [
        "motor_a": [
            "speed": 20, "position": 360, "brake": "ON", "mode": "hold", "label": "left wheel", "running": "ON",
            "type": "large",
        ],
        "buttons": ["up": "OFF", "enter": "ON"],
        "sensors": ["port_1": ["value": 42, "mode": "reflect"]],
        "gatt": ["00002a19-0000-1000-8000-00805f9b34fb": "64"],
        "battery": 80,
    ]
}
