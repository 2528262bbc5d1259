// Sensor opcodes (`c_input.c`). opINPUT_DEVICE (`99`) takes its sub-command first, then LAYER and NO.
// Reads default to TYPE 0 and MODE −1 (keep): any other pair makes the brick switch the device, which can
// block every channel for up to 1.2 s.

/// The modes a device may be asked for: 0–7 (`MAX_DEVICE_MODES`), or −1 to keep the current one.
let inputModes: ClosedRange<Int> = -1...7

extension EV3Query where Value == EV3TypeMode {
    /// GET_TYPEMODE (`99 05`): the attached device's type and current mode; `noDevice` for an empty port.
    public static func typeMode(_ port: EV3InputPort) -> Self {
        let parts: [EV3Part] = [.code(0x99), .code(0x05), EV3Instruction.layer, port.part, .output(0), .output(1)]
        return Self(EV3Instruction("GET_TYPEMODE", parts, outputs: [.int8, .int8])) {
            EV3TypeMode(type: EV3DeviceType(rawValue: EV3Values.byte($0[0])), mode: EV3Values.byte($0[1]))
        }
    }
}

extension EV3Query where Value == [Float?] {
    /// READY_SI (`99 1D`): `values` (1–8) readings in SI units, `nil` where the port has none.
    public static func readySI(
        _ port: EV3InputPort, type: EV3DeviceType = .keep, mode: Int = -1, values: Int
    ) throws(EV3EncodingError) -> Self {
        try ready("READY_SI", 0x1D, port, type, mode, values, .float, EV3Values.float)
    }
}

extension EV3Query where Value == [Int32?] {
    /// READY_RAW (`99 1C`): `values` (1–8) raw readings, `nil` where the port has none.
    public static func readyRaw(
        _ port: EV3InputPort, type: EV3DeviceType = .keep, mode: Int = -1, values: Int
    ) throws(EV3EncodingError) -> Self {
        try ready("READY_RAW", 0x1C, port, type, mode, values, .int32, EV3Values.int32)
    }
}

extension EV3Query where Value == [Int8?] {
    /// READY_PCT (`99 1B`): `values` (1–8) readings in percent, `nil` where the port has none.
    ///
    /// The values are bytes, but each gets a 4-byte aligned slot: the firmware's validator checks every value
    /// after a PARNO count as a 32-bit parameter (`validate.c`), so a READY_PCT output at an odd offset fails the
    /// whole command. The brick writes the first byte of each slot and leaves the other three as they were.
    public static func readyPct(
        _ port: EV3InputPort, type: EV3DeviceType = .keep, mode: Int = -1, values: Int
    ) throws(EV3EncodingError) -> Self {
        try ready("READY_PCT", 0x1B, port, type, mode, values, .int8Aligned, EV3Values.int8)
    }
}

extension EV3Query where Value == Float? {
    /// READY_SI (`99 1D`) for one value: the port's first reading in SI units, `nil` if it has none.
    public static func readySI(
        _ port: EV3InputPort, type: EV3DeviceType = .keep, mode: Int = -1
    ) throws(EV3EncodingError) -> Self {
        let many = try EV3Query<[Float?]>.readySI(port, type: type, mode: mode, values: 1)
        return Self(many.instruction) { EV3Values.float($0[0]) }
    }

    /// INPUT_READSI (`9D`): one reading in SI units, `nil` if the port has none.
    public static func inputReadSI(
        _ port: EV3InputPort, type: EV3DeviceType = .keep, mode: Int = -1
    ) throws(EV3EncodingError) -> Self {
        let parts = try typeAndMode("INPUT_READSI", type, mode)
        return .single("INPUT_READSI", [.code(0x9D), EV3Instruction.layer, port.part] + parts, .float, EV3Values.float)
    }
}

extension EV3Query where Value == Int8? {
    /// INPUT_READ (`9A`): one reading in percent, `nil` if the port has none.
    public static func inputRead(
        _ port: EV3InputPort, type: EV3DeviceType = .keep, mode: Int = -1
    ) throws(EV3EncodingError) -> Self {
        let parts = try typeAndMode("INPUT_READ", type, mode)
        return .single("INPUT_READ", [.code(0x9A), EV3Instruction.layer, port.part] + parts, .int8, EV3Values.int8)
    }
}

extension EV3Query where Value == String {
    /// GET_NAME (`99 15`): the attached device's name, in a buffer of `length` (1–127) bytes.
    public static func deviceName(_ port: EV3InputPort, length: Int) throws(EV3EncodingError) -> Self {
        try text("GET_NAME", [.code(0x99), .code(0x15), EV3Instruction.layer, port.part], length: length)
    }

    /// GET_MODENAME (`99 16`): the name of one of the device's modes, in `length` (1–127) bytes.
    public static func modeName(_ port: EV3InputPort, mode: Int, length: Int) throws(EV3EncodingError) -> Self {
        let mode = try checked(mode, 0...7, "GET_MODENAME mode")
        let parts: [EV3Part] = [.code(0x99), .code(0x16), EV3Instruction.layer, port.part, .int8(Int8(mode))]
        return try text("GET_MODENAME", parts, length: length)
    }
}

/// What INPUT_DEVICE_LIST reports: the type on each device index, and whether any changed.
public struct EV3DeviceList: Sendable, Hashable {
    /// Types by device index: sensor ports 1–4 first, then further layers and the motor ports.
    public var types: [EV3DeviceType]
    /// Whether a device was plugged or unplugged since the last list.
    public var changed: Bool

    /// Creates a list.
    public init(types: [EV3DeviceType], changed: Bool) {
        self.types = types
        self.changed = changed
    }
}

extension EV3Query where Value == EV3DeviceList {
    /// INPUT_DEVICE_LIST (`98`): the types of the first `length` (1–127) devices.
    public static func deviceList(length: Int) throws(EV3EncodingError) -> Self {
        let length = try checked(length, 1...127, "INPUT_DEVICE_LIST length")
        let parts: [EV3Part] = [.code(0x98), .int8(Int8(length)), .output(0), .output(1)]
        return Self(EV3Instruction("INPUT_DEVICE_LIST", parts, outputs: [.bytes(length), .int8])) {
            EV3DeviceList(types: $0[0].map { EV3DeviceType(rawValue: Int8(bitPattern: $0)) }, changed: $0[1].first != 0)
        }
    }
}

/// The TYPE and MODE arguments of a read.
func typeAndMode(_ name: String, _ type: EV3DeviceType, _ mode: Int) throws(EV3EncodingError) -> [EV3Part] {
    let type = try checked(Int(type.rawValue), 0...127, "\(name) type")
    let mode = try checked(mode, inputModes, "\(name) mode")
    return [.int8(Int8(type)), .int8(Int8(mode))]
}

extension EV3Query {
    static func ready<Element>(
        _ name: String, _ command: UInt8, _ port: EV3InputPort, _ type: EV3DeviceType, _ mode: Int, _ values: Int,
        _ slot: EV3GlobalSlot, _ read: @escaping @Sendable (ArraySlice<UInt8>) -> Element
    ) throws(EV3EncodingError) -> Self where Value == [Element] {
        let selection = try typeAndMode(name, type, mode)
        // Each value is its own output parameter (`c_input.c` reads one per value), not one buffer.
        let values = try checked(values, 1...8, "\(name) values")
        let head: [EV3Part] = [.code(0x99), .code(command), EV3Instruction.layer, port.part]
        let parts = head + selection + [.int8(Int8(values))] + (0..<values).map(EV3Part.output)
        return Self(EV3Instruction(name, parts, outputs: Array(repeating: slot, count: values))) { $0.map(read) }
    }

    static func text(_ name: String, _ parts: [EV3Part], length: Int) throws(EV3EncodingError) -> Self
    where Value == String {
        // LENGTH is a DATA8: anything above 127 would reach the brick negative.
        let length = try checked(length, 1...127, "\(name) length")
        return .single(name, parts + [.int8(Int8(length))], .bytes(length), EV3Values.string)
    }
}
