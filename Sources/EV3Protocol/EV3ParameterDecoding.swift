extension EV3Parameter {
    /// Reads one parameter starting at `index` and moves `index` past it. Every form a client may send
    /// is accepted (legoev3 widens everything to LC1 and GV1), including the older `80` string form,
    /// which reads back as `lcs`. Throws, leaving `index` unchanged, for truncated input and for the
    /// handle and address forms, which direct commands from a host do not use.
    public static func decode(_ bytes: [UInt8], at index: inout Int) throws(EV3DecodingError) -> EV3Parameter {
        guard index >= 0, index < bytes.count else { throw .truncated(needed: index + 1, got: bytes.count) }
        let first = bytes[index]
        if first & 0x80 == 0 {
            index += 1
            return short(first)
        }
        let isVariable = first & 0x40 != 0
        let isGlobal = first & 0x20 != 0
        // Bits 4 and 3 mark handles and addresses; a constant has no global bit either.
        guard first & 0x18 == 0, isVariable || !isGlobal else {
            throw .unsupportedParameter(first, offset: index)
        }
        let size = first & 0x07
        if !isVariable, size == 0 || size == 4 { return try string(bytes, at: &index) }
        let width: Int
        switch size {
        case 1: width = 1
        case 2: width = 2
        case 3: width = 4
        default: throw .unsupportedParameter(first, offset: index)
        }
        guard bytes.count - index > width else { throw .truncated(needed: index + 1 + width, got: bytes.count) }
        let body = bytes[(index + 1)...]
        index += 1 + width
        switch (isVariable, isGlobal, width) {
        case (false, _, 1): return .lc1(Int8(bitPattern: body[body.startIndex]))
        case (false, _, 2): return .lc2(readLittleEndian(Int16.self, body))
        case (false, _, _): return .lc4(readLittleEndian(Int32.self, body))
        case (true, false, 1): return .lv1(body[body.startIndex])
        case (true, false, 2): return .lv2(readLittleEndian(UInt16.self, body))
        case (true, false, _): return .lv4(readLittleEndian(UInt32.self, body))
        case (true, true, 1): return .gv1(body[body.startIndex])
        case (true, true, 2): return .gv2(readLittleEndian(UInt16.self, body))
        case (true, true, _): return .gv4(readLittleEndian(UInt32.self, body))
        }
    }

    /// The value of a constant parameter, whatever its width; `nil` for strings and variables.
    public var constantValue: Int32? {
        switch self {
        case .lc0(let value), .lc1(let value): Int32(value)
        case .lc2(let value): Int32(value)
        case .lc4(let value): value
        default: nil
        }
    }

    /// The offset of a global variable, whatever its width; `nil` for everything else.
    public var globalOffset: UInt32? {
        switch self {
        case .gv0(let offset), .gv1(let offset): UInt32(offset)
        case .gv2(let offset): UInt32(offset)
        case .gv4(let offset): offset
        default: nil
        }
    }

    private static func short(_ first: UInt8) -> EV3Parameter {
        if first & 0x40 == 0 {
            // Six-bit two's complement: bit 5 is the sign, so copy it into the two top bits.
            let extended = first & 0x20 != 0 ? first | 0xC0 : first
            return .lc0(Int8(bitPattern: extended))
        }
        return first & 0x20 != 0 ? .gv0(first & 0x1F) : .lv0(first & 0x1F)
    }

    private static func string(_ bytes: [UInt8], at index: inout Int) throws(EV3DecodingError) -> EV3Parameter {
        guard let end = bytes[(index + 1)...].firstIndex(of: 0) else { throw .unterminatedString(offset: index) }
        let text = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        index = end + 1
        return .lcs(text)
    }
}
