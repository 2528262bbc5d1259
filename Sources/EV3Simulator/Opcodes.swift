/// A parameter as the firmware's opcode table declares it (`bytecodes.c`): its type, which decides the
/// constant range and the alignment of a variable, and whether the opcode writes it.
enum SimParameter: Hashable, Sendable {
    /// DATA8, DATA16, DATA32 read by the opcode.
    case in8, in16, in32
    /// A string read by the opcode (declared DATA8: a pointer to its first byte).
    case inString
    /// DATA8, DATA16, DATA32, DATAF written by the opcode.
    case out8, out16, out32, outFloat
    /// A string buffer written by the opcode, its size the LENGTH argument just before it (declared DATA8).
    case outText
    /// A byte array written by the opcode, its size the first argument (INPUT_DEVICE_LIST; declared DATA8).
    case outBytes
    /// PARNO: a constant count, then that many outputs of the given kind, each checked as a 32-bit parameter.
    indirect case values(SimParameter)

    /// The alignment the validator requires of a variable in this position (`cValidateCheckAlignment`).
    var alignment: Int {
        switch self {
        case .in16, .out16: 2
        case .in32, .out32, .outFloat: 4
        default: 1
        }
    }

    /// The range a constant in this position must lie in (`ParMin`/`ParMax`: the NaN sentinels are out).
    var constantRange: ClosedRange<Int32> {
        switch self {
        case .in16, .out16: -32767...32767
        case .in32, .out32, .outFloat: -2_147_483_647...2_147_483_647
        default: -127...127
        }
    }
}

/// One entry of the simulator's opcode table.
struct SimOpcode: Sendable {
    let name: String
    let parameters: [SimParameter]
}

/// The opcodes the simulated brick knows: those the bridge's catalogue sends, the blocking ones (so that
/// they can be seen to block), and a few moves. Anything else is unknown, and the firmware's validator
/// refuses the whole command for it.
enum SimOpcodes {
    static let plain: [UInt8: SimOpcode] = [
        0x00: SimOpcode(name: "ERROR", parameters: []),
        0x01: SimOpcode(name: "NOP", parameters: []),
        0x30: SimOpcode(name: "MOVE8_8", parameters: [.in8, .out8]),
        0x35: SimOpcode(name: "MOVE16_16", parameters: [.in16, .out16]),
        0x3A: SimOpcode(name: "MOVE32_32", parameters: [.in32, .out32]),
        0x96: SimOpcode(name: "SOUND_READY", parameters: []),
        0x98: SimOpcode(name: "INPUT_DEVICE_LIST", parameters: [.in8, .outBytes, .out8]),
        0x9A: SimOpcode(name: "INPUT_READ", parameters: [.in8, .in8, .in8, .in8, .out8]),
        0x9D: SimOpcode(name: "INPUT_READSI", parameters: [.in8, .in8, .in8, .in8, .outFloat]),
        0xA2: SimOpcode(name: "OUTPUT_RESET", parameters: [.in8, .in8]),
        0xA3: SimOpcode(name: "OUTPUT_STOP", parameters: [.in8, .in8, .in8]),
        0xA4: SimOpcode(name: "OUTPUT_POWER", parameters: [.in8, .in8, .in8]),
        0xA5: SimOpcode(name: "OUTPUT_SPEED", parameters: [.in8, .in8, .in8]),
        0xA6: SimOpcode(name: "OUTPUT_START", parameters: [.in8, .in8]),
        0xA7: SimOpcode(name: "OUTPUT_POLARITY", parameters: [.in8, .in8, .in8]),
        0xA8: SimOpcode(name: "OUTPUT_READ", parameters: [.in8, .in8, .out8, .out32]),
        0xA9: SimOpcode(name: "OUTPUT_TEST", parameters: [.in8, .in8, .out8]),
        0xAA: SimOpcode(name: "OUTPUT_READY", parameters: [.in8, .in8]),
        0xAC: SimOpcode(name: "OUTPUT_STEP_POWER", parameters: [.in8, .in8, .in8, .in32, .in32, .in32, .in8]),
        0xAD: SimOpcode(name: "OUTPUT_TIME_POWER", parameters: [.in8, .in8, .in8, .in32, .in32, .in32, .in8]),
        0xAE: SimOpcode(name: "OUTPUT_STEP_SPEED", parameters: [.in8, .in8, .in8, .in32, .in32, .in32, .in8]),
        0xAF: SimOpcode(name: "OUTPUT_TIME_SPEED", parameters: [.in8, .in8, .in8, .in32, .in32, .in32, .in8]),
        0xB0: SimOpcode(name: "OUTPUT_STEP_SYNC", parameters: [.in8, .in8, .in8, .in16, .in32, .in8]),
        0xB1: SimOpcode(name: "OUTPUT_TIME_SYNC", parameters: [.in8, .in8, .in8, .in16, .in32, .in8]),
        0xB2: SimOpcode(name: "OUTPUT_CLR_COUNT", parameters: [.in8, .in8]),
        0xB3: SimOpcode(name: "OUTPUT_GET_COUNT", parameters: [.in8, .in8, .out32]),
    ]

    /// Opcodes whose first argument is a sub-command, each sub-command with its own parameters.
    static let withSubcommands: [UInt8: [UInt8: SimOpcode]] = [
        0x81: [
            0x01: SimOpcode(name: "GET_VBATT", parameters: [.outFloat]),
            0x02: SimOpcode(name: "GET_IBATT", parameters: [.outFloat]),
            0x03: SimOpcode(name: "GET_OS_VERS", parameters: [.in8, .outText]),
            0x09: SimOpcode(name: "GET_HW_VERS", parameters: [.in8, .outText]),
            0x0A: SimOpcode(name: "GET_FW_VERS", parameters: [.in8, .outText]),
            0x0B: SimOpcode(name: "GET_FW_BUILD", parameters: [.in8, .outText]),
            0x0C: SimOpcode(name: "GET_OS_BUILD", parameters: [.in8, .outText]),
            0x12: SimOpcode(name: "GET_LBATT", parameters: [.out8]),
        ],
        0x82: [0x1B: SimOpcode(name: "LED", parameters: [.in8])],
        0x83: [
            0x03: SimOpcode(name: "WAIT_FOR_PRESS", parameters: []),
            0x09: SimOpcode(name: "PRESSED", parameters: [.in8, .out8]),
        ],
        0x94: [
            0x00: SimOpcode(name: "BREAK", parameters: []),
            0x01: SimOpcode(name: "TONE", parameters: [.in8, .in16, .in16]),
            0x02: SimOpcode(name: "PLAY", parameters: [.in8, .inString]),
            0x03: SimOpcode(name: "REPEAT", parameters: [.in8, .inString]),
        ],
        0x99: [
            0x05: SimOpcode(name: "GET_TYPEMODE", parameters: [.in8, .in8, .out8, .out8]),
            0x0A: SimOpcode(name: "CLR_ALL", parameters: [.in8]),
            0x0D: SimOpcode(name: "STOP_ALL", parameters: [.in8]),
            0x15: SimOpcode(name: "GET_NAME", parameters: [.in8, .in8, .in8, .outText]),
            0x16: SimOpcode(name: "GET_MODENAME", parameters: [.in8, .in8, .in8, .in8, .outText]),
            0x1A: SimOpcode(name: "CLR_CHANGES", parameters: [.in8, .in8]),
            0x1B: SimOpcode(name: "READY_PCT", parameters: [.in8, .in8, .in8, .in8, .values(.out8)]),
            0x1C: SimOpcode(name: "READY_RAW", parameters: [.in8, .in8, .in8, .in8, .values(.out32)]),
            0x1D: SimOpcode(name: "READY_SI", parameters: [.in8, .in8, .in8, .in8, .values(.outFloat)]),
        ],
        0xD3: [
            0x0C: SimOpcode(name: "GET_ID", parameters: [.in8, .in8, .outText]),
            0x0D: SimOpcode(name: "GET_BRICKNAME", parameters: [.in8, .outText]),
        ],
        0xD4: [0x08: SimOpcode(name: "SET_BRICKNAME", parameters: [.inString])],
    ]
}
