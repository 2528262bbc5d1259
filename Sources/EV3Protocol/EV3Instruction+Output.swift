// Motor opcodes (`c_output.c`). The blocking OUTPUT_READY (`AA`) is left out on purpose: it stalls
// every channel of the brick until the motion ends, a STOP included.

extension EV3Instruction {
    /// LAYER: always 0, the brick itself rather than a daisy-chained one.
    static let layer = EV3Part.int8(0)

    /// OUTPUT_STOP (`A3`): stop, braking or letting the motors coast.
    public static func outputStop(_ ports: EV3OutputPorts, brake: Bool) throws(EV3EncodingError) -> Self {
        let nos = try ports.checked("OUTPUT_STOP")
        return Self("OUTPUT_STOP", [.code(0xA3), layer, nos, .int8(brake ? 1 : 0)])
    }

    /// OUTPUT_RESET (`A2`): restart position tracking for STEP_* and TIME_* moves.
    public static func outputReset(_ ports: EV3OutputPorts) throws(EV3EncodingError) -> Self {
        try portsOnly("OUTPUT_RESET", 0xA2, ports)
    }

    /// OUTPUT_START (`A6`): run at the power or speed set before.
    public static func outputStart(_ ports: EV3OutputPorts) throws(EV3EncodingError) -> Self {
        try portsOnly("OUTPUT_START", 0xA6, ports)
    }

    /// OUTPUT_CLR_COUNT (`B2`): zero the tacho count.
    public static func outputClearCount(_ ports: EV3OutputPorts) throws(EV3EncodingError) -> Self {
        try portsOnly("OUTPUT_CLR_COUNT", 0xB2, ports)
    }

    /// OUTPUT_POWER (`A4`): set unregulated power −100…100; needs OUTPUT_START to move.
    public static func outputPower(_ ports: EV3OutputPorts, power: Int) throws(EV3EncodingError) -> Self {
        try setPoint("OUTPUT_POWER", 0xA4, ports, "power", power)
    }

    /// OUTPUT_SPEED (`A5`): set regulated speed −100…100; needs OUTPUT_START to move.
    public static func outputSpeed(_ ports: EV3OutputPorts, speed: Int) throws(EV3EncodingError) -> Self {
        try setPoint("OUTPUT_SPEED", 0xA5, ports, "speed", speed)
    }

    /// OUTPUT_POLARITY (`A7`): set or toggle the direction.
    public static func outputPolarity(
        _ ports: EV3OutputPorts, _ polarity: EV3Polarity
    ) throws(EV3EncodingError) -> Self {
        let nos = try ports.checked("OUTPUT_POLARITY")
        return Self("OUTPUT_POLARITY", [.code(0xA7), layer, nos, .int8(polarity.rawValue)])
    }

    /// OUTPUT_STEP_POWER (`AC`): move by degrees at a power, ramping as given, then stop.
    public static func outputStepPower(
        _ ports: EV3OutputPorts, power: Int, degrees: EV3Ramp, brake: Bool
    ) throws(EV3EncodingError) -> Self {
        try profile("OUTPUT_STEP_POWER", 0xAC, ports, "power", power, degrees, brake)
    }

    /// OUTPUT_TIME_POWER (`AD`): run for milliseconds at a power, ramping as given, then stop.
    public static func outputTimePower(
        _ ports: EV3OutputPorts, power: Int, milliseconds: EV3Ramp, brake: Bool
    ) throws(EV3EncodingError) -> Self {
        try profile("OUTPUT_TIME_POWER", 0xAD, ports, "power", power, milliseconds, brake)
    }

    /// OUTPUT_STEP_SPEED (`AE`): move by degrees at a regulated speed, ramping as given, then stop.
    public static func outputStepSpeed(
        _ ports: EV3OutputPorts, speed: Int, degrees: EV3Ramp, brake: Bool
    ) throws(EV3EncodingError) -> Self {
        try profile("OUTPUT_STEP_SPEED", 0xAE, ports, "speed", speed, degrees, brake)
    }

    /// OUTPUT_TIME_SPEED (`AF`): run for milliseconds at a regulated speed, ramping as given, then stop.
    public static func outputTimeSpeed(
        _ ports: EV3OutputPorts, speed: Int, milliseconds: EV3Ramp, brake: Bool
    ) throws(EV3EncodingError) -> Self {
        try profile("OUTPUT_TIME_SPEED", 0xAF, ports, "speed", speed, milliseconds, brake)
    }

    /// OUTPUT_STEP_SYNC (`B0`): two motors in step, `turn` −200…200 steering, for `degrees`.
    public static func outputStepSync(
        _ ports: EV3OutputPorts, speed: Int, turn: Int, degrees: Int, brake: Bool
    ) throws(EV3EncodingError) -> Self {
        try sync("OUTPUT_STEP_SYNC", 0xB0, ports, speed, turn, "degrees", degrees, brake)
    }

    /// OUTPUT_TIME_SYNC (`B1`): two motors in step, `turn` −200…200 steering, for `milliseconds`.
    public static func outputTimeSync(
        _ ports: EV3OutputPorts, speed: Int, turn: Int, milliseconds: Int, brake: Bool
    ) throws(EV3EncodingError) -> Self {
        try sync("OUTPUT_TIME_SYNC", 0xB1, ports, speed, turn, "milliseconds", milliseconds, brake)
    }

    private static func portsOnly(
        _ name: String, _ op: UInt8, _ ports: EV3OutputPorts
    ) throws(EV3EncodingError) -> Self {
        Self(name, [.code(op), layer, try ports.checked(name)])
    }

    private static func setPoint(
        _ name: String, _ op: UInt8, _ ports: EV3OutputPorts, _ what: String, _ value: Int
    ) throws(EV3EncodingError) -> Self {
        let nos = try ports.checked(name)
        let value = try checked(value, -100...100, "\(name) \(what)")
        return Self(name, [.code(op), layer, nos, .int8(Int8(value))])
    }

    private static func profile(
        _ name: String, _ op: UInt8, _ ports: EV3OutputPorts, _ what: String, _ value: Int, _ ramp: EV3Ramp,
        _ brake: Bool
    ) throws(EV3EncodingError) -> Self {
        let head = try setPoint(name, op, ports, what, value).parts
        let phases = 0...Int(Int32.max)
        let up = try checked(ramp.up, phases, "\(name) ramp up")
        let constant = try checked(ramp.constant, phases, "\(name) constant phase")
        let down = try checked(ramp.down, phases, "\(name) ramp down")
        let tail: [EV3Part] = [.int32(Int32(up)), .int32(Int32(constant)), .int32(Int32(down)), .int8(brake ? 1 : 0)]
        return Self(name, head + tail)
    }

    private static func sync(
        _ name: String, _ op: UInt8, _ ports: EV3OutputPorts, _ speed: Int, _ turn: Int, _ what: String,
        _ amount: Int, _ brake: Bool
    ) throws(EV3EncodingError) -> Self {
        let head = try setPoint(name, op, ports, "speed", speed).parts
        let turn = try checked(turn, -200...200, "\(name) turn")
        let amount = try checked(amount, 0...Int(Int32.max), "\(name) \(what)")
        return Self(name, head + [.int16(Int16(turn)), .int32(Int32(amount)), .int8(brake ? 1 : 0)])
    }
}

/// `value` if `allowed` holds it, else an error naming `what`.
func checked(_ value: Int, _ allowed: ClosedRange<Int>, _ what: String) throws(EV3EncodingError) -> Int {
    guard allowed.contains(value) else { throw .outOfRange(what, value: value, allowed: allowed) }
    return value
}
