/// A device type as GET_TYPEMODE reports it (`lms2012.h`, `typedata.rcf`); an open set, since third-party
/// sensors report their own numbers.
public struct EV3DeviceType: RawRepresentable, Sendable, Hashable {
    /// The number on the wire.
    public let rawValue: Int8
    /// Wraps a number.
    public init(rawValue: Int8) { self.rawValue = rawValue }

    /// `0` in a READY_* argument: keep the current type, so a read never forces a type change.
    public static let keep = Self(rawValue: 0)
    /// NXT touch sensor.
    public static let nxtTouch = Self(rawValue: 1)
    /// NXT light sensor.
    public static let nxtLight = Self(rawValue: 2)
    /// NXT sound sensor.
    public static let nxtSound = Self(rawValue: 3)
    /// NXT colour sensor.
    public static let nxtColor = Self(rawValue: 4)
    /// NXT ultrasonic sensor.
    public static let nxtUltrasonic = Self(rawValue: 5)
    /// NXT temperature sensor.
    public static let nxtTemperature = Self(rawValue: 6)
    /// EV3 large motor.
    public static let largeMotor = Self(rawValue: 7)
    /// EV3 medium motor.
    public static let mediumMotor = Self(rawValue: 8)
    /// EV3 touch sensor.
    public static let touch = Self(rawValue: 16)
    /// EV3 colour sensor.
    public static let color = Self(rawValue: 29)
    /// EV3 ultrasonic sensor.
    public static let ultrasonic = Self(rawValue: 30)
    /// EV3 gyro sensor.
    public static let gyro = Self(rawValue: 32)
    /// EV3 infrared sensor.
    public static let infrared = Self(rawValue: 33)
    /// Something is plugged in and still being identified.
    public static let initializing = Self(rawValue: 125)
    /// Nothing is plugged in.
    public static let noDevice = Self(rawValue: 126)
    /// The port is in error (a device it cannot identify).
    public static let error = Self(rawValue: 127)

    /// Whether this is an EV3 motor.
    public var isMotor: Bool { self == .largeMotor || self == .mediumMotor }
    /// Whether a device is attached and identified.
    public var isDevice: Bool { rawValue > 0 && rawValue < 125 }
}

/// What GET_TYPEMODE answers for a port.
public struct EV3TypeMode: Sendable, Hashable {
    /// The attached device's type (`noDevice` for an empty port).
    public var type: EV3DeviceType
    /// The device's current mode.
    public var mode: Int8

    /// Creates a pair.
    public init(type: EV3DeviceType, mode: Int8) {
        self.type = type
        self.mode = mode
    }
}

/// The brick's LED patterns (opUI_WRITE LED).
public enum EV3LEDPattern: Int8, Sendable, Hashable, CaseIterable {
    /// Dark.
    case off = 0
    /// Steady green.
    case green, red, orange
    /// Flashing.
    case greenFlash, redFlash, orangeFlash
    /// Pulsing.
    case greenPulse, redPulse, orangePulse
}

/// The brick's buttons (opUI_BUTTON PRESSED).
public enum EV3Button: Int8, Sendable, Hashable, CaseIterable {
    /// Up.
    case up = 1
    /// The centre button.
    case enter, down, right, left, back
}

/// A motor's direction for OUTPUT_POLARITY.
public enum EV3Polarity: Int8, Sendable, Hashable {
    /// Reverse.
    case backward = -1
    /// Swap the current direction.
    case toggle = 0
    /// Normal.
    case forward = 1
}

/// The three phases of a STEP_* or TIME_* move: ramp up, constant, ramp down (degrees or milliseconds).
public struct EV3Ramp: Sendable, Hashable {
    /// Degrees or milliseconds spent reaching the set point.
    public var up: Int
    /// Degrees or milliseconds at the set point.
    public var constant: Int
    /// Degrees or milliseconds spent slowing down.
    public var down: Int

    /// Creates a profile; each phase must lie in 0…Int32.max.
    public init(up: Int = 0, constant: Int, down: Int = 0) {
        self.up = up
        self.constant = constant
        self.down = down
    }
}
