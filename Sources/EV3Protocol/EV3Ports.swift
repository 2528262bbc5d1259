/// A set of motor ports, as the output opcodes take them (NOS): a bitfield, A = `01` … D = `08`.
public struct EV3OutputPorts: OptionSet, Sendable, Hashable {
    /// The bitfield.
    public let rawValue: UInt8
    /// Wraps a bitfield; bits above D are ignored by the brick and refused by the opcodes here.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Port A.
    public static let a = EV3OutputPorts(rawValue: 0x01)
    /// Port B.
    public static let b = EV3OutputPorts(rawValue: 0x02)
    /// Port C.
    public static let c = EV3OutputPorts(rawValue: 0x04)
    /// Port D.
    public static let d = EV3OutputPorts(rawValue: 0x08)
    /// All four.
    public static let all = EV3OutputPorts(rawValue: 0x0F)

    /// The NOS argument, refused when empty or naming ports beyond D.
    func checked(_ opcode: String) throws(EV3EncodingError) -> EV3Part {
        guard (1...0x0F).contains(rawValue) else {
            throw .outOfRange("\(opcode) ports", value: Int(rawValue), allowed: 1...0x0F)
        }
        return .int8(Int8(rawValue))
    }
}

/// One motor port, as the opcodes marked "NO 0–3" take it (OUTPUT_READ, OUTPUT_GET_COUNT): an index.
public enum EV3OutputPort: UInt8, Sendable, Hashable, CaseIterable {
    /// Port A, index 0.
    case a = 0
    /// Port B, index 1.
    case b = 1
    /// Port C, index 2.
    case c = 2
    /// Port D, index 3.
    case d = 3

    /// The same port as a one-element bitfield.
    public var set: EV3OutputPorts { EV3OutputPorts(rawValue: 1 << rawValue) }

    /// The same port read as a sensor (NO 16–19), for GET_TYPEMODE and READY_SI on a motor.
    public var asInput: EV3InputPort { EV3InputPort(checkedRawValue: 0x10 + rawValue) }
}

/// A port the input opcodes take (NO): sensor ports 1–4 are 0–3, motor ports A–D read as sensors are 16–19.
public struct EV3InputPort: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The NO argument.
    public let rawValue: UInt8

    /// Accepts 0–3 and 16–19 only; other numbers name devices on daisy-chained bricks.
    public init?(rawValue: UInt8) {
        guard (0...3).contains(rawValue) || (0x10...0x13).contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    fileprivate init(checkedRawValue: UInt8) { rawValue = checkedRawValue }

    /// Sensor port `number` (1–4), or `nil` outside that.
    public static func sensor(_ number: Int) -> EV3InputPort? {
        (1...4).contains(number) ? EV3InputPort(checkedRawValue: UInt8(number - 1)) : nil
    }

    /// The four sensor ports, 1 to 4.
    public static let sensors = (1...4).compactMap(sensor)
    /// The four motor ports read as sensors, A to D.
    public static let motors = EV3OutputPort.allCases.map(\.asInput)

    /// Whether this is a motor port read as a sensor.
    public var isMotor: Bool { rawValue >= 0x10 }

    /// `1`–`4` or `A`–`D`, as printed on the brick.
    public var description: String {
        isMotor ? String(UnicodeScalar(UInt8(ascii: "A") + rawValue - 0x10)) : String(rawValue + 1)
    }

    var part: EV3Part { .int8(Int8(rawValue)) }
}
