public import EV3Protocol

/// How a motor is driven: unregulated power or regulated speed, −100…100.
public enum EV3Drive: Sendable, Hashable, CustomStringConvertible {
    /// OUTPUT_POWER and friends: the motor slows under load.
    case power(Int)
    /// OUTPUT_SPEED and friends: the brick holds the speed under load.
    case speed(Int)

    /// `power 50`, `speed -20`.
    public var description: String {
        switch self {
        case .power(let value): "power \(value)"
        case .speed(let value): "speed \(value)"
        }
    }
}

/// A motor set-point: the latest one per port wins while it waits in the queue.
public enum EV3MotorCommand: Sendable, Hashable, CustomStringConvertible {
    /// Run until stopped (or until another set-point).
    case run(EV3Drive)
    /// Run for `milliseconds`, then stop, braking or coasting.
    case timed(EV3Drive, milliseconds: Int, brake: Bool)
    /// Turn by `degrees` (direction from the drive's sign), then stop, braking or coasting.
    case step(EV3Drive, degrees: Int, brake: Bool)

    /// `run at speed 50`, `power 30 for 500 ms, then brake`, `speed 20 for 90°, then coast`.
    public var description: String {
        switch self {
        case .run(let drive): "run at \(drive)"
        case .timed(let drive, let milliseconds, let brake): "\(drive) for \(milliseconds) ms, then \(brake ? "brake" : "coast")"
        case .step(let drive, let degrees, let brake): "\(drive) for \(degrees)°, then \(brake ? "brake" : "coast")"
        }
    }

    /// The instructions for `port`; throws, building nothing, for values the brick does not take.
    public func instructions(for port: EV3OutputPort) throws(EV3EncodingError) -> [EV3Instruction] {
        let ports = port.set
        switch self {
        case .run(.power(let power)): return [try .outputPower(ports, power: power), try .outputStart(ports)]
        case .run(.speed(let speed)): return [try .outputSpeed(ports, speed: speed), try .outputStart(ports)]
        case .timed(.power(let power), let milliseconds, let brake):
            return [try .outputTimePower(ports, power: power, milliseconds: EV3Ramp(constant: milliseconds), brake: brake)]
        case .timed(.speed(let speed), let milliseconds, let brake):
            return [try .outputTimeSpeed(ports, speed: speed, milliseconds: EV3Ramp(constant: milliseconds), brake: brake)]
        case .step(.power(let power), let degrees, let brake):
            return [try .outputStepPower(ports, power: power, degrees: EV3Ramp(constant: degrees), brake: brake)]
        case .step(.speed(let speed), let degrees, let brake):
            return [try .outputStepSpeed(ports, speed: speed, degrees: EV3Ramp(constant: degrees), brake: brake)]
        }
    }
}
