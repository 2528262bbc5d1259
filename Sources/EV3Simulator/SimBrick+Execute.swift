import EV3Protocol

/// What running one instruction did.
enum SimStep: Equatable {
    case done
    /// The instruction ended with an error: the rest of the command does not run, the reply is `04`.
    case failed
    /// A blocking opcode whose condition does not hold yet: run it again later, everything else waits.
    case blocked
}

extension SimBrick {
    /// Runs one instruction at `now`.
    mutating func execute(_ instruction: SimInstruction, locals: inout [UInt8], now: ContinuousClock.Instant) -> SimStep {
        advance(to: now)
        let args = instruction.arguments
        func number(_ index: Int, width: Int = 1) -> Int32 { read(args[index], width: width, locals: locals) }
        switch instruction.name {
        case "ERROR": return .failed
        case "NOP": return .done
        case "MOVE8_8": store([UInt8(truncatingIfNeeded: number(0))], args[1], locals: &locals)
        case "MOVE16_16": store(littleEndian(number(0, width: 2), bytes: 2), args[1], locals: &locals)
        case "MOVE32_32": store(littleEndian(number(0, width: 4), bytes: 4), args[1], locals: &locals)
        case let name where name.hasPrefix("OUTPUT_"):
            return output(name, args, locals: &locals, now: now)
        case let name where name.hasPrefix("INPUT_") || instruction.opcode == 0x99:
            return input(name, args, locals: &locals)
        case "GET_VBATT": store(float(batteryVoltage), args[0], locals: &locals)
        case "GET_IBATT": store(float(batteryCurrent), args[0], locals: &locals)
        case "GET_LBATT": store([UInt8(bitPattern: batteryPercent)], args[0], locals: &locals)
        case "GET_FW_VERS": storeText(firmwareVersion, length: number(0), args[1], locals: &locals)
        case "GET_FW_BUILD": storeText(firmwareBuild, length: number(0), args[1], locals: &locals)
        case "GET_HW_VERS": storeText(hardwareVersion, length: number(0), args[1], locals: &locals)
        case "GET_OS_VERS": storeText(osVersion, length: number(0), args[1], locals: &locals)
        case "GET_OS_BUILD": storeText(osBuild, length: number(0), args[1], locals: &locals)
        case "LED":
            led = Int8(truncatingIfNeeded: number(0))
            events.append(.led(led))
        case "PRESSED":
            let pressed = EV3Button(rawValue: Int8(truncatingIfNeeded: number(0))).map(buttons.contains) ?? false
            store([pressed ? 1 : 0], args[1], locals: &locals)
        case "WAIT_FOR_PRESS": return buttons.isEmpty ? .blocked : .done
        case "TONE":
            let milliseconds = Int(number(2, width: 2))
            events.append(.tone(volume: Int(number(0)), frequency: Int(number(1, width: 2)), milliseconds: milliseconds))
            soundUntil = now + .milliseconds(max(0, milliseconds))
            soundRepeats = false
        case "PLAY", "REPEAT":
            let repeating = instruction.name == "REPEAT"
            events.append(.sound(volume: Int(number(0)), file: text(args[1], locals: locals), repeating: repeating))
            // A sound file's length is not known here; a second stands for it.
            soundUntil = now + .seconds(1)
            soundRepeats = repeating
        case "BREAK":
            events.append(.soundStopped)
            soundUntil = nil
            soundRepeats = false
        case "SOUND_READY": return isPlaying(at: now) ? .blocked : .done
        case "GET_BRICKNAME": storeText(name, length: number(0), args[1], locals: &locals)
        case "GET_ID":
            // Stock firmware answers only for Bluetooth (2) and fails the whole command for USB and WiFi.
            guard number(0) == 2 else { return .failed }
            storeText(serialNumber.uppercased(), length: number(1), args[2], locals: &locals)
        case "SET_BRICKNAME":
            let newName = String(text(args[0], locals: locals).prefix(12))
            guard !newName.isEmpty else { return .failed }
            name = newName
            events.append(.renamed(newName))
        default: return .failed
        }
        return .done
    }

    /// Reads a numeric input: a constant, or `width` bytes of memory, sign-extended.
    func read(_ argument: SimArgument, width: Int, locals: [UInt8]) -> Int32 {
        let source: [UInt8]
        let offset: Int
        switch argument {
        case .value(let value): return value
        case .string: return 0
        case .global(let at): (source, offset) = (memory, at)
        case .local(let at): (source, offset) = (locals, at)
        }
        guard offset + width <= source.count else { return 0 }
        var value: Int32 = 0
        for index in 0..<width { value |= Int32(source[offset + index]) << (8 * index) }
        let shift = Int32(32 - 8 * width)
        return (value << shift) >> shift
    }

    /// Reads a string input: a constant, or a NUL-terminated string in memory.
    func text(_ argument: SimArgument, locals: [UInt8]) -> String {
        switch argument {
        case .string(let text): return text
        case .value: return ""
        case .global(let at): return String(decoding: memory.dropFirst(at).prefix { $0 != 0 }, as: UTF8.self)
        case .local(let at): return String(decoding: locals.dropFirst(at).prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// Writes an output; a constant in an output position takes nothing, bytes past memory are lost.
    mutating func store(_ bytes: [UInt8], _ argument: SimArgument, locals: inout [UInt8]) {
        switch argument {
        case .value, .string: return
        case .global(let at):
            for (index, byte) in bytes.enumerated() where at + index < memory.count { memory[at + index] = byte }
        case .local(let at):
            for (index, byte) in bytes.enumerated() where at + index < locals.count { locals[at + index] = byte }
        }
    }

    /// Writes a string and its NUL into a buffer of `length` bytes, leaving the rest of the buffer as it was.
    mutating func storeText(_ text: String, length: Int32, _ argument: SimArgument, locals: inout [UInt8]) {
        guard length > 0 else { return }
        store(Array(text.utf8.prefix(Int(length) - 1)) + [0], argument, locals: &locals)
    }
}

/// `bytes` bytes of `value`, least significant first.
func littleEndian(_ value: Int32, bytes: Int) -> [UInt8] {
    (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}

/// A DATAF as stored.
func float(_ value: Float) -> [UInt8] {
    littleEndian(Int32(bitPattern: value.bitPattern), bytes: 4)
}
