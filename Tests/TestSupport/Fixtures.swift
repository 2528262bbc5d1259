public import BridgeCore

/// Device descriptors shared by tests.
public enum Fixtures {
    /// A LIFX-like colour light: hs + colour temperature 1500–9000 K, effects, brightness.
    public static func colorLight(_ id: String = "lifx_d073d5000001", label: String = "Kitchen") -> DeviceDescriptor {
        DeviceDescriptor(
            id: DeviceID(id)!, kind: "light", manufacturer: "LIFX", model: "LIFX A19", modelID: "a19",
            serialNumber: "d073d5000001", softwareVersion: "3.70", connections: [["mac", "d0:73:d5:00:00:01"]],
            label: label,
            exposes: [
                .light(LightFeatures(colorModes: [.hs, .colorTemp], kelvinRange: 1500...9000, effects: ["pulse", "breathe"])),
                .numeric("signal", name: "Signal", unit: "dBm", deviceClass: "signal_strength", stateClass: "measurement", category: .diagnostic),
            ],
            switchable: true)
    }

    /// A LIFX-like white light: colour temperature 2700–6500 K and brightness.
    public static func whiteLight(_ id: String = "lifx_d073d5000002", label: String = "Hall") -> DeviceDescriptor {
        DeviceDescriptor(
            id: DeviceID(id)!, kind: "light", manufacturer: "LIFX", model: "LIFX Mini White", modelID: "mini_white",
            label: label, exposes: [.light(LightFeatures(colorModes: [.colorTemp], kelvinRange: 2700...6500))],
            switchable: true)
    }

    /// A LIFX-like switch-only light: no brightness, no colour.
    public static func plainLight(_ id: String = "lifx_d073d5000003", label: String = "Plug") -> DeviceDescriptor {
        DeviceDescriptor(
            id: DeviceID(id)!, kind: "light", manufacturer: "LIFX", model: "LIFX Switch", label: label,
            exposes: [.light(LightFeatures(colorModes: [], brightness: false, transition: false))], switchable: true)
    }

    /// A LIFX-like account with two scenes.
    public static func scenes(_ id: String = "lifx_account_cc7e033643c84f00b874830690884adc") -> DeviceDescriptor {
        DeviceDescriptor(
            id: DeviceID(id)!, kind: "scenes", manufacturer: "LIFX", model: "LIFX scenes", label: "LIFX scenes",
            exposes: [
                .scene(objectID: "scene_05bfb786ec87", name: "Evening", value: "05bfb786-ec87-4766-a61a-8698b3e08b81"),
                .scene(objectID: "scene_9a1c0e55d2b4", name: "Movie Night", value: "9a1c0e55-d2b4-4f0e-9a55-0c4b7a1de111"),
            ])
    }

    /// A state with a value for every state property of `sensorBox()`.
    public static let sensorBoxState: [String: JSONValue] = [
        "temperature": 21.5, "battery": 87, "interval": 60, "contact": "OFF", "led": "ON", "mode": "eco",
        "display": "C", "firmware_note": "stable", "label_text": "Bedroom",
    ]

    /// A sensor-ish device with numeric, binary, enum, text, action and scene exposes, read-only and writable.
    public static func sensorBox(_ id: String = "ble_a4c138aabbcc") -> DeviceDescriptor {
        DeviceDescriptor(
            id: DeviceID(id)!, kind: "sensor", manufacturer: "Xiaomi", model: "LYWSD03MMC", modelID: "LYWSD03MMC",
            softwareVersion: "1.0", hardwareVersion: "B1.4", connections: [["mac", "a4:c1:38:aa:bb:cc"]],
            exposes: [
                .numeric("temperature", name: "Temperature", unit: "°C", deviceClass: "temperature", stateClass: "measurement"),
                .numeric("battery", name: "Battery", unit: "%", range: 0...100, deviceClass: "battery", category: .diagnostic),
                .numeric("interval", name: "Report interval", access: [.state, .set], unit: "s", range: 1...3600, step: 1, category: .config),
                .binary("contact", name: "Contact", deviceClass: "door"),
                .binary("led", name: "LED", access: [.state, .set], category: .config),
                .enumeration("mode", name: "Mode", values: ["eco", "comfort"]),
                .enumeration("display", name: "Display unit", values: ["C", "F"], access: [.state, .set], category: .config),
                .text("firmware_note", name: "Firmware note", category: .diagnostic),
                .text("label_text", name: "Label text", access: [.state, .set]),
                .action("identify", name: "Identify", payload: "blink", icon: "mdi:lightbulb-on"),
                .scene(objectID: "scene_evening", name: "Evening", value: "evening"),
            ])
    }
}
