import BridgeCore
import EV3Protocol

/// What a brick exposes: the brick's own values and commands, and one composite per port with something
/// plugged in, so that entities come and go with the motors and sensors.
enum BrickExposes {
    /// The longest brick name the firmware keeps.
    static let maxNameLength = 12
    /// Tone limits the sound driver takes (`TONE`).
    static let frequencies = 250.0...10_000.0
    static let toneDurations = 1.0...32_767.0
    /// How long a timed move or how far a stepped one may go (the firmware's DATA32 phases).
    static let moveRange = 1.0...Double(Int32.max)

    /// Every expose, ports in order (motors A–D, then sensors 1–4).
    static func exposes(ports: [BrickPort: AttachedDevice]) -> [Expose] {
        var exposes: [Expose] = [
            .numeric(
                "battery", name: "Battery", unit: "%", range: 0...100, deviceClass: "battery", stateClass: "measurement"),
            .numeric(
                "voltage", name: "Battery voltage", unit: "V", deviceClass: "voltage", stateClass: "measurement",
                category: .diagnostic),
            .numeric(
                "current", name: "Battery current", unit: "A", deviceClass: "current", stateClass: "measurement",
                category: .diagnostic),
            .composite("buttons", name: "Button", features: EV3Button.allCases.map { .binary($0.key, name: $0.key.capitalized) }),
        ]
        for (port, device) in ports.sorted(by: { $0.key < $1.key }) where device.type.isDevice {
            switch port {
            case .motor(let output) where device.type.isMotor: exposes.append(motor(output))
            case .motor: continue
            case .sensor(let number): exposes.append(sensor(number, device))
            }
        }
        var stop = Expose.action("stop", name: "Stop motors", payload: "stop", icon: "mdi:stop")
        stop.objectID = "stop_motors"
        exposes += [
            stop,
            .enumeration("led", name: "LED", values: EV3LEDPattern.allCases.map(\.name), access: [.state, .set]),
            {
                var name = Expose.text("name", name: "Name", access: [.state, .set], category: .config, maxLength: maxNameLength)
                name.minimum = 1
                return name
            }(),
            .action("beep", name: "Beep", payload: "beep", icon: "mdi:volume-high"),
            .composite(
                "tone", name: "Tone",
                features: [
                    .numeric("frequency", name: "Frequency", access: [.set], unit: "Hz", range: frequencies),
                    .numeric("duration_ms", name: "Duration", access: [.set], unit: "ms", range: toneDurations),
                    .numeric("volume", name: "Volume", access: [.set], unit: "%", range: 0...100),
                ]),
            .text("sound", name: "Sound", access: [.set]),
        ]
        return exposes
    }

    /// A motor: its speed as a slider (the measured speed in the state), the parameters of a move, its
    /// position, and a Stop button.
    static func motor(_ port: EV3OutputPort) -> Expose {
        .composite(
            BrickPort.motor(port).key, name: BrickPort.motor(port).name,
            features: [
                .numeric("speed", name: "Speed", access: [.state, .set], unit: "%", range: -100...100, step: 1),
                .numeric("power", name: "Power", access: [.set], unit: "%", range: -100...100),
                .numeric("time_ms", name: "Time", access: [.set], unit: "ms", range: moveRange),
                .numeric("degrees", name: "Degrees", access: [.set], unit: "°", range: moveRange),
                .binary("brake", name: "Brake", access: [.set]),
                .numeric("position", name: "Position", unit: "°", stateClass: "measurement"),
                .text("type", name: "Type", category: .diagnostic),
                .action("stop", name: "Stop", payload: "stop", icon: "mdi:stop"),
            ])
    }

    /// A sensor: its values in the current mode, the mode as a select when the device has named modes, its type.
    static func sensor(_ number: Int, _ device: AttachedDevice) -> Expose {
        var features = SensorValues.fields(device).map(\.expose)
        let modes = EV3SensorMode.modes(of: device.type)
        if !modes.isEmpty {
            features.append(.enumeration("mode", name: "Mode", values: modes.map(\.rawValue), access: [.state, .set], category: .config))
        }
        features.append(.text("type", name: "Type", category: .diagnostic))
        return .composite(BrickPort.sensor(number).key, name: BrickPort.sensor(number).name, features: features)
    }
}
