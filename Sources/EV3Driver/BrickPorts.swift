import EV3Protocol

/// One of a brick's eight ports, as the state and `/set` name it: `motor_a` … `motor_d`, `port_1` … `port_4`.
enum BrickPort: Hashable, Sendable, Comparable, CustomStringConvertible {
    case motor(EV3OutputPort)
    case sensor(Int)

    /// Motors A–D, then sensors 1–4: the order ports are polled and listed in.
    static let all: [BrickPort] = EV3OutputPort.allCases.map(BrickPort.motor) + (1...4).map(BrickPort.sensor)

    /// The key in the state and in `/set`.
    var key: String {
        switch self {
        case .motor(let port): "motor_\(port.letter.lowercased())"
        case .sensor(let number): "port_\(number)"
        }
    }

    /// `Motor A`, `Port 1`: the composite's name, which leads its entities' names.
    var name: String {
        switch self {
        case .motor(let port): "Motor \(port.letter)"
        case .sensor(let number): "Port \(number)"
        }
    }

    /// The port as the input opcodes take it (motors read as sensors on 16–19).
    var input: EV3InputPort {
        switch self {
        case .motor(let port): port.asInput
        case .sensor(let number): EV3InputPort.sensor(number) ?? EV3InputPort.sensors[0]
        }
    }

    var description: String { key }

    static func < (lhs: BrickPort, rhs: BrickPort) -> Bool {
        (all.firstIndex(of: lhs) ?? 0) < (all.firstIndex(of: rhs) ?? 0)
    }
}

extension EV3OutputPort {
    /// `A` … `D`, as printed on the brick.
    var letter: String { ["A", "B", "C", "D"][Int(rawValue)] }
}

/// What is plugged into a port, as GET_TYPEMODE last said.
struct AttachedDevice: Hashable, Sendable {
    var type: EV3DeviceType
    var mode: Int8

    /// The named mode the device is in; nil for modes and devices without a name here.
    var namedMode: EV3SensorMode? { EV3SensorMode(device: type, number: mode) }
}

extension EV3DeviceType {
    /// The name a port's `type` shows: `large`, `touch`, `nxt_light`, `type_42` for devices not known here.
    var displayName: String {
        switch self {
        case .largeMotor: "large"
        case .mediumMotor: "medium"
        case .touch: "touch"
        case .color: "color"
        case .ultrasonic: "ultrasonic"
        case .gyro: "gyro"
        case .infrared: "infrared"
        case .nxtTouch: "nxt_touch"
        case .nxtLight: "nxt_light"
        case .nxtSound: "nxt_sound"
        case .nxtColor: "nxt_color"
        case .nxtUltrasonic: "nxt_ultrasonic"
        case .nxtTemperature: "nxt_temperature"
        case .error: "error"
        default: "type_\(rawValue)"
        }
    }
}

extension EV3LEDPattern {
    /// The pattern's name in `/set` and the state: `off`, `green`, `green_flash`, `orange_pulse`, ….
    var name: String {
        switch self {
        case .off: "off"
        case .green: "green"
        case .red: "red"
        case .orange: "orange"
        case .greenFlash: "green_flash"
        case .redFlash: "red_flash"
        case .orangeFlash: "orange_flash"
        case .greenPulse: "green_pulse"
        case .redPulse: "red_pulse"
        case .orangePulse: "orange_pulse"
        }
    }

    /// The pattern with this name.
    init?(name: String) {
        guard let pattern = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = pattern
    }
}

extension EV3Button {
    /// The button's key under `buttons`.
    var key: String {
        switch self {
        case .up: "up"
        case .enter: "enter"
        case .down: "down"
        case .right: "right"
        case .left: "left"
        case .back: "back"
        }
    }
}
