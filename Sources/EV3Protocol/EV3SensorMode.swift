/// A sensor mode by the name users write in config and commands, with the EV3 device it belongs to and its
/// number on the wire (`typedata.rcf`). Each name belongs to exactly one device, so a name alone says both.
public enum EV3SensorMode: String, Sendable, Hashable, CaseIterable {
    /// Touch sensor mode 0: pressed (1) or not (0).
    case touch
    /// Touch sensor mode 1: presses counted since the last clear.
    case bumps
    /// Colour sensor mode 0: reflected light, percent.
    case reflected
    /// Colour sensor mode 1: ambient light, percent.
    case ambient
    /// Colour sensor mode 2: a colour number (0 none, 1 black … 7 brown).
    case color
    /// Colour sensor mode 4: raw red, green and blue.
    case rgb
    /// Ultrasonic sensor mode 0: distance in centimetres.
    case distance
    /// Ultrasonic sensor mode 1: distance in inches.
    case distanceInches = "distance_inches"
    /// Ultrasonic sensor mode 2: whether another ultrasonic sensor is heard.
    case listen
    /// Gyro sensor mode 0: angle in degrees.
    case angle
    /// Gyro sensor mode 1: rate in degrees per second.
    case rate
    /// Gyro sensor mode 3: angle and rate together.
    case angleAndRate = "angle_and_rate"
    /// Infrared sensor mode 0: proximity, percent.
    case proximity
    /// Infrared sensor mode 1: heading and distance of up to four beacons.
    case seek
    /// Infrared sensor mode 2: the buttons pressed on up to four remotes.
    case remote

    /// The device that has this mode.
    public var device: EV3DeviceType {
        switch self {
        case .touch, .bumps: .touch
        case .reflected, .ambient, .color, .rgb: .color
        case .distance, .distanceInches, .listen: .ultrasonic
        case .angle, .rate, .angleAndRate: .gyro
        case .proximity, .seek, .remote: .infrared
        }
    }

    /// The mode's number on the wire.
    public var number: Int8 {
        switch self {
        case .touch, .reflected, .distance, .angle, .proximity: 0
        case .bumps, .ambient, .distanceInches, .rate, .seek: 1
        case .color, .listen, .remote: 2
        case .angleAndRate: 3
        case .rgb: 4
        }
    }

    /// How many values a read in this mode returns.
    public var valueCount: Int {
        switch self {
        case .rgb: 3
        case .angleAndRate: 2
        case .seek: 8
        case .remote: 4
        default: 1
        }
    }

    /// The named mode with this number on this device, if there is one.
    public init?(device: EV3DeviceType, number: Int8) {
        guard let mode = Self.allCases.first(where: { $0.device == device && $0.number == number }) else { return nil }
        self = mode
    }

    /// The named modes of a device, in mode-number order.
    public static func modes(of device: EV3DeviceType) -> [EV3SensorMode] {
        allCases.filter { $0.device == device }.sorted { $0.number < $1.number }
    }
}
