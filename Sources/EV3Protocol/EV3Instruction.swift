/// How constants and global offsets are written. The brick reads every form; the compact one keeps
/// frames short, the declared one reproduces what other clients send (and what a simulator must read).
public struct EV3EncodingStyle: Sendable, Hashable {
    /// How a constant argument is written.
    public enum Constants: Sendable, Hashable {
        /// LC0 when it fits, else the narrowest of LC1, LC2, LC4.
        case shortest
        /// At the width the opcode declares: LC1 for DATA8, LC2 for DATA16, LC4 for DATA32.
        case declaredWidth
    }

    /// How an output's global offset is written.
    public enum Globals: Sendable, Hashable {
        /// GV0 for offsets below 32, else GV1 or GV2.
        case shortest
        /// Never GV0: GV1, or GV2 from offset 256 on.
        case long
    }

    /// How constants are written.
    public var constants: Constants
    /// How global offsets are written.
    public var globals: Globals

    /// Creates a style.
    public init(constants: Constants, globals: Globals) {
        self.constants = constants
        self.globals = globals
    }

    /// The shortest forms throughout: what this codec sends.
    public static let compact = EV3EncodingStyle(constants: .shortest, globals: .shortest)
    /// legoev3's forms: constants at their declared width, globals never short.
    public static let legoev3 = EV3EncodingStyle(constants: .declaredWidth, globals: .long)
}

/// One piece of an instruction before it is encoded.
enum EV3Part: Sendable, Hashable {
    /// An opcode or sub-command byte, sent as it is.
    case code(UInt8)
    /// A constant whose declared type is DATA8.
    case int8(Int8)
    /// A constant whose declared type is DATA16.
    case int16(Int16)
    /// A constant whose declared type is DATA32.
    case int32(Int32)
    /// A string constant, already checked for NULs.
    case string(String)
    /// The instruction's n-th output, written as the global offset the batch assigns it.
    case output(Int)
}

/// What one output occupies in global memory: `count` values of `width` bytes, aligned to `width`.
struct EV3GlobalSlot: Sendable, Hashable {
    /// 4 for DATA32 and DATAF, 2 for DATA16, 1 for DATA8 and strings.
    let width: Int
    /// Values in the slot: 1 for a number, the buffer length for a string or byte array.
    let count: Int

    /// Bytes taken.
    var size: Int { width * count }

    static let int8 = EV3GlobalSlot(width: 1, count: 1)
    static let int16 = EV3GlobalSlot(width: 2, count: 1)
    static let int32 = EV3GlobalSlot(width: 4, count: 1)
    static let float = EV3GlobalSlot(width: 4, count: 1)
    /// A DATA8 the firmware's validator checks as a 32-bit parameter (the values after a PARNO count).
    static let int8Aligned = EV3GlobalSlot(width: 4, count: 1)
    static func bytes(_ count: Int) -> EV3GlobalSlot { EV3GlobalSlot(width: 1, count: count) }
}

/// One VM instruction (an opcode with its arguments), checked when it is made. Only the opcodes this
/// module knows can be built, so a batch never carries an opcode the firmware's validator refuses.
public struct EV3Instruction: Sendable, Hashable {
    /// The firmware's name for it, e.g. `OUTPUT_POWER`, for logs and errors.
    public let name: String
    let parts: [EV3Part]
    let outputs: [EV3GlobalSlot]

    init(_ name: String, _ parts: [EV3Part], outputs: [EV3GlobalSlot] = []) {
        self.name = name
        self.parts = parts
        self.outputs = outputs
    }

    /// The encoded bytes; outputs, if any, placed from global offset 0 as if alone in a batch.
    public func bytes(style: EV3EncodingStyle = .compact) -> [UInt8] {
        var batch = EV3Batch()
        batch.append(self)
        return batch.bytecode(style: style)
    }

    /// Appends the encoding; `offsets` holds the global offset of each output, in output order.
    func encode(into bytes: inout [UInt8], style: EV3EncodingStyle, offsets: [Int]) {
        for part in parts {
            let parameter: EV3Parameter
            switch part {
            case .code(let code):
                bytes.append(code)
                continue
            case .int8(let value): parameter = style.constants == .shortest ? .constant(Int32(value)) : .lc1(value)
            case .int16(let value): parameter = style.constants == .shortest ? .constant(Int32(value)) : .lc2(value)
            case .int32(let value): parameter = style.constants == .shortest ? .constant(value) : .lc4(value)
            case .string(let text): parameter = .lcs(text)
            case .output(let index):
                let offset = UInt32(offsets[index])
                parameter = style.globals == .long && offset < 32 ? .gv1(UInt8(offset)) : .global(offset)
            }
            do {
                try parameter.encode(into: &bytes)
            } catch {
                // Every part was range-checked when the instruction was made, so no form can fail here.
                assertionFailure("\(name): \(error)")
            }
        }
    }
}
