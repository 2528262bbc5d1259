import EV3Protocol
import Support

/// An argument as the VM sees it.
enum SimArgument: Hashable {
    /// A constant number.
    case value(Int32)
    /// A constant string.
    case string(String)
    /// An offset into the reply's global memory.
    case global(Int)
    /// An offset into the command's local memory.
    case local(Int)
}

/// One decoded instruction.
struct SimInstruction: Hashable {
    let opcode: UInt8
    let subcode: UInt8?
    let name: String
    /// The arguments after the sub-command, PARNO counts included.
    let arguments: [SimArgument]
}

/// Why the validator refused a command: nothing of it runs.
struct SimRefusal: Error, Hashable, CustomStringConvertible {
    let description: String
}

/// The firmware's validator (`validate.c`), as far as direct commands from a host need it: every opcode and
/// sub-command known, every parameter readable, constants in their type's range, 16- and 32-bit variables
/// aligned (the values after a PARNO count are checked as 32-bit). It checks the whole command before
/// anything runs.
enum SimDecoder {
    static let globalMemory = 1024
    static let localMemory = 64

    static func decode(_ bytecode: [UInt8]) -> Result<[SimInstruction], SimRefusal> {
        var index = 0
        var instructions: [SimInstruction] = []
        do throws(SimRefusal) {
            while index < bytecode.count {
                instructions.append(try instruction(bytecode, at: &index))
            }
            return .success(instructions)
        } catch {
            return .failure(error)
        }
    }

    private static func instruction(_ bytes: [UInt8], at index: inout Int) throws(SimRefusal) -> SimInstruction {
        let start = index
        let opcode = bytes[index]
        index += 1
        let entry: SimOpcode
        var subcode: UInt8?
        if let table = SimOpcodes.withSubcommands[opcode] {
            guard case .value(let value) = try argument(bytes, at: &index), let sub = UInt8(exactly: value),
                let found = table[sub]
            else {
                throw SimRefusal(
                    description: "unknown sub-command of opcode 0x\(Hex.byte(opcode, uppercase: true)) at byte \(start)")
            }
            entry = found
            subcode = sub
        } else if let found = SimOpcodes.plain[opcode] {
            entry = found
        } else {
            throw SimRefusal(description: "unknown opcode 0x\(Hex.byte(opcode, uppercase: true)) at byte \(start)")
        }
        var arguments: [SimArgument] = []
        for parameter in entry.parameters {
            guard case .values(let kind) = parameter else {
                arguments.append(try checked(try argument(bytes, at: &index), parameter, alignment: parameter.alignment))
                continue
            }
            guard case .value(let count) = try argument(bytes, at: &index), (0...127).contains(count) else {
                throw SimRefusal(description: "\(entry.name): the number of values must be a constant 0…127")
            }
            arguments.append(.value(count))
            for _ in 0..<count { arguments.append(try checked(try argument(bytes, at: &index), kind, alignment: 4)) }
        }
        return SimInstruction(opcode: opcode, subcode: subcode, name: entry.name, arguments: arguments)
    }

    private static func argument(_ bytes: [UInt8], at index: inout Int) throws(SimRefusal) -> SimArgument {
        let parameter: EV3Parameter
        do {
            parameter = try EV3Parameter.decode(bytes, at: &index)
        } catch {
            throw SimRefusal(description: "parameter: \(error)")
        }
        switch parameter {
        case .lc0(let value), .lc1(let value): return .value(Int32(value))
        case .lc2(let value): return .value(Int32(value))
        case .lc4(let value): return .value(value)
        case .lcs(let text): return .string(text)
        case .lv0(let offset), .lv1(let offset): return .local(Int(offset))
        case .lv2(let offset): return .local(Int(offset))
        case .lv4(let offset): return .local(Int(offset))
        case .gv0(let offset), .gv1(let offset): return .global(Int(offset))
        case .gv2(let offset): return .global(Int(offset))
        case .gv4(let offset): return .global(Int(offset))
        }
    }

    private static func checked(
        _ argument: SimArgument, _ parameter: SimParameter, alignment: Int
    ) throws(SimRefusal) -> SimArgument {
        switch argument {
        case .value(let value):
            guard parameter == .inString || parameter.constantRange.contains(value) else {
                throw SimRefusal(description: "constant \(value) out of range")
            }
        case .string: break
        case .global(let offset), .local(let offset):
            guard offset % alignment == 0 else {
                throw SimRefusal(description: "variable at offset \(offset) is not aligned to \(alignment) bytes")
            }
            let limit = if case .global = argument { globalMemory } else { localMemory }
            guard offset < limit else { throw SimRefusal(description: "variable at offset \(offset) is out of memory") }
        }
        return argument
    }
}
