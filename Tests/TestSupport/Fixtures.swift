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
