public import EV3Protocol

/// What the simulated brick did that a test may want to see, besides the frames themselves.
public enum EV3SimulatorEvent: Sendable, Hashable {
    /// The LED pattern was set (0 off … 9 orange pulse).
    case led(Int8)
    /// A tone was played.
    case tone(volume: Int, frequency: Int, milliseconds: Int)
    /// A sound file was played, once or repeating.
    case sound(volume: Int, file: String, repeating: Bool)
    /// Sound was stopped (BREAK).
    case soundStopped
    /// The brick was renamed.
    case renamed(String)
}

/// How the simulated brick is built.
public struct EV3SimulatorSetup: Sendable, Hashable {
    /// The brick's name (at most 12 characters).
    public var name = "EV3"
    /// The serial number: the Bluetooth address without colons, lowercase.
    public var serialNumber = "0016533f0c1e"
    /// The firmware version GET_FW_VERS reports.
    public var firmwareVersion = "V1.10E"
    /// The firmware build GET_FW_BUILD reports.
    public var firmwareBuild = "1803"
    /// The hardware version GET_HW_VERS reports.
    public var hardwareVersion = "V0.60"
    /// What is plugged into the motor ports A–D: `largeMotor`, `mediumMotor` or `noDevice`.
    public var motors: [EV3DeviceType] = [.largeMotor, .largeMotor, .mediumMotor, .noDevice]
    /// What is plugged into sensor ports 1–4: touch, color, ultrasonic, gyro, infrared, or `noDevice`.
    public var sensors: [EV3DeviceType] = [.touch, .color, .ultrasonic, .gyro]
    /// Battery level in percent (GET_LBATT).
    public var batteryPercent: Int8 = 87
    /// Battery voltage in volts (GET_VBATT).
    public var batteryVoltage: Float = 7.85
    /// Battery current in amperes (GET_IBATT).
    public var batteryCurrent: Float = 0.18

    /// The demo brick: large motors on A and B, a medium motor on C; touch, colour, ultrasonic and gyro sensors.
    public init() {}
}

/// The brick's state: everything commands read and change, and the global memory replies are copied from.
struct SimBrick {
    var name: String
    let serialNumber: String
    let firmwareVersion: String
    let firmwareBuild: String
    let hardwareVersion: String
    let osVersion = "Linux 2.6.33-rc4"
    let osBuild = "1212211432"
    var batteryPercent: Int8
    var batteryVoltage: Float
    var batteryCurrent: Float
    var buttons: Set<EV3Button> = []
    var led: Int8 = 1
    var motors: [SimMotor]
    var sensors: [EV3SimulatedSensor?]
    /// Input ports (NO 0–3, 16–19) whose reads fail the whole command.
    var failingPorts: Set<Int32> = []
    /// A device was plugged or unplugged since INPUT_DEVICE_LIST last looked.
    var devicesChanged = false
    /// Until when a tone or sound plays; a repeating sound (`soundRepeats`) plays until BREAK.
    var soundUntil: ContinuousClock.Instant?
    var soundRepeats = false
    /// The VM's global memory. Never cleared between commands, as on the brick: bytes after a string's NUL are
    /// whatever an earlier command left there.
    var memory = [UInt8](repeating: 0, count: SimDecoder.globalMemory)
    var events: [EV3SimulatorEvent] = []

    init(_ setup: EV3SimulatorSetup) {
        name = String(setup.name.prefix(12))
        serialNumber = setup.serialNumber
        firmwareVersion = setup.firmwareVersion
        firmwareBuild = setup.firmwareBuild
        hardwareVersion = setup.hardwareVersion
        batteryPercent = setup.batteryPercent
        batteryVoltage = setup.batteryVoltage
        batteryCurrent = setup.batteryCurrent
        motors = (0..<4).map { SimMotor(type: setup.motors.indices.contains($0) ? setup.motors[$0] : .noDevice) }
        sensors = (0..<4).map { setup.sensors.indices.contains($0) ? EV3SimulatedSensor(setup.sensors[$0]) : nil }
    }

    /// Whether a tone or sound is still playing.
    func isPlaying(at now: ContinuousClock.Instant) -> Bool {
        soundRepeats || soundUntil.map { now < $0 } ?? false
    }

    /// Brings every motor up to `now`.
    mutating func advance(to now: ContinuousClock.Instant) {
        for index in motors.indices { motors[index].advance(to: now) }
    }
}
