// Reads of the brick itself (opUI_READ, opUI_BUTTON, opCOM_GET) and of its motors (`c_output.c`).

extension EV3Query where Value == Float? {
    /// GET_VBATT (`81 01`): battery voltage in volts.
    public static var batteryVoltage: Self { .single("GET_VBATT", [.code(0x81), .code(0x01)], .float, EV3Values.float) }
    /// GET_IBATT (`81 02`): battery current in amperes.
    public static var batteryCurrent: Self { .single("GET_IBATT", [.code(0x81), .code(0x02)], .float, EV3Values.float) }
}

extension EV3Query where Value == Int8 {
    /// GET_LBATT (`81 12`): battery level in percent.
    public static var batteryPercent: Self { .single("GET_LBATT", [.code(0x81), .code(0x12)], .int8, EV3Values.byte) }
}

extension EV3Query where Value == String {
    /// GET_FW_VERS (`81 0A`): the firmware version, e.g. `V1.09H`, in `length` (1–127) bytes.
    public static func firmwareVersion(length: Int) throws(EV3EncodingError) -> Self {
        try text("GET_FW_VERS", [.code(0x81), .code(0x0A)], length: length)
    }

    /// GET_HW_VERS (`81 09`): the hardware version, e.g. `V0.60`, in `length` (1–127) bytes.
    public static func hardwareVersion(length: Int) throws(EV3EncodingError) -> Self {
        try text("GET_HW_VERS", [.code(0x81), .code(0x09)], length: length)
    }

    /// GET_FW_BUILD (`81 0B`): the firmware build, in `length` (1–127) bytes.
    public static func firmwareBuild(length: Int) throws(EV3EncodingError) -> Self {
        try text("GET_FW_BUILD", [.code(0x81), .code(0x0B)], length: length)
    }

    /// GET_OS_VERS (`81 03`): the Linux version, in `length` (1–127) bytes.
    public static func osVersion(length: Int) throws(EV3EncodingError) -> Self {
        try text("GET_OS_VERS", [.code(0x81), .code(0x03)], length: length)
    }

    /// GET_OS_BUILD (`81 0C`): the Linux build, in `length` (1–127) bytes.
    public static func osBuild(length: Int) throws(EV3EncodingError) -> Self {
        try text("GET_OS_BUILD", [.code(0x81), .code(0x0C)], length: length)
    }

    /// GET_BRICKNAME (`D3 0D`): the brick's name, in `length` (1–127) bytes.
    public static func brickName(length: Int) throws(EV3EncodingError) -> Self {
        try text("GET_BRICKNAME", [.code(0xD3), .code(0x0D)], length: length)
    }

    /// GET_ID (`D3 0C`) for Bluetooth: the brick's Bluetooth address without colons. The firmware answers
    /// GET_ID only for Bluetooth and fails the whole command for USB or WiFi, so those are not offered.
    public static func bluetoothAddress(length: Int) throws(EV3EncodingError) -> Self {
        try text("GET_ID", [.code(0xD3), .code(0x0C), .int8(2)], length: length)
    }
}

extension EV3Query where Value == Bool? {
    /// PRESSED (`83 09`): whether a brick button is held down; nil for a byte other than the 0 or 1 the firmware
    /// writes (a reply damaged on its way).
    public static func buttonPressed(_ button: EV3Button) -> Self {
        .single("PRESSED", [.code(0x83), .code(0x09), .int8(button.rawValue)], .int8) { bytes in
            switch bytes.first {
            case 0: false
            case 1: true
            default: nil
            }
        }
    }
}

extension EV3Query where Value == Bool {

    /// OUTPUT_TEST (`A9`): whether any of the motors is still running a move.
    public static func outputTest(_ ports: EV3OutputPorts) throws(EV3EncodingError) -> Self {
        let nos = try ports.checked("OUTPUT_TEST")
        return .single("OUTPUT_TEST", [.code(0xA9), EV3Instruction.layer, nos], .int8) { $0.first != 0 }
    }
}

/// What OUTPUT_READ reports for a motor.
public struct EV3MotorReading: Sendable, Hashable {
    /// Speed, −100…100.
    public var speed: Int8?
    /// Tacho count in degrees.
    public var tacho: Int32?

    /// Creates a reading.
    public init(speed: Int8?, tacho: Int32?) {
        self.speed = speed
        self.tacho = tacho
    }
}

extension EV3Query where Value == EV3MotorReading {
    /// OUTPUT_READ (`A8`): one motor's speed and tacho count.
    public static func outputRead(_ port: EV3OutputPort) -> Self {
        let parts: [EV3Part] = [.code(0xA8), EV3Instruction.layer, .int8(Int8(port.rawValue)), .output(0), .output(1)]
        return Self(EV3Instruction("OUTPUT_READ", parts, outputs: [.int8, .int32])) {
            EV3MotorReading(speed: EV3Values.int8($0[0]), tacho: EV3Values.int32($0[1]))
        }
    }
}

extension EV3Query where Value == Int32? {
    /// OUTPUT_GET_COUNT (`B3`): one motor's tacho count in degrees.
    public static func outputGetCount(_ port: EV3OutputPort) -> Self {
        let parts: [EV3Part] = [.code(0xB3), EV3Instruction.layer, .int8(Int8(port.rawValue))]
        return .single("OUTPUT_GET_COUNT", parts, .int32, EV3Values.int32)
    }

    /// opMOVE32_32 (`3A`): copies `value` into the reply, a round trip that touches nothing on the brick.
    /// (`Int32.min` reads back as `nil`, being the DATA32 sentinel.)
    public static func move32(_ value: Int32) -> Self {
        .single("MOVE32_32", [.code(0x3A), .int32(value)], .int32, EV3Values.int32)
    }
}

extension EV3Query where Value == Int16? {
    /// opMOVE16_16 (`35`): copies `value` into the reply, like `move32` for a 16-bit global.
    /// (`Int16.min` reads back as `nil`, being the DATA16 sentinel.)
    public static func move16(_ value: Int16) -> Self {
        .single("MOVE16_16", [.code(0x35), .int16(value)], .int16, EV3Values.int16)
    }
}
