/// One parameter as the brick's VM reads it (`bytecodes.h`): constants, strings, and offsets of local or
/// global variables. The first byte says which: bit 7 long/short, bit 6 variable/constant, bit 5
/// global/local for variables.
public enum EV3Parameter: Sendable, Hashable {
    /// A short constant in the first byte, −32…31 (six-bit two's complement: −1 is `3F`).
    case lc0(Int8)
    /// `81` and one byte.
    case lc1(Int8)
    /// `82` and two bytes, little-endian.
    case lc2(Int16)
    /// `83` and four bytes, little-endian.
    case lc4(Int32)
    /// `84`, the string's bytes and a NUL.
    case lcs(String)
    /// A local variable at offset 0…31 (`40 | i`).
    case lv0(UInt8)
    /// `C1` and a one-byte local offset.
    case lv1(UInt8)
    /// `C2` and a two-byte local offset.
    case lv2(UInt16)
    /// `C3` and a four-byte local offset.
    case lv4(UInt32)
    /// A global variable (an offset into the reply) at 0…31 (`60 | i`).
    case gv0(UInt8)
    /// `E1` and a one-byte global offset.
    case gv1(UInt8)
    /// `E2` and a two-byte global offset.
    case gv2(UInt16)
    /// `E3` and a four-byte global offset.
    case gv4(UInt32)

    /// The range LC0 can carry; LV0 and GV0 carry 0…31.
    public static let shortConstants: ClosedRange<Int> = -32...31

    /// The shortest constant encoding of `value`.
    public static func constant(_ value: Int32) -> EV3Parameter {
        if shortConstants.contains(Int(value)) { return .lc0(Int8(value)) }
        if let byte = Int8(exactly: value) { return .lc1(byte) }
        if let short = Int16(exactly: value) { return .lc2(short) }
        return .lc4(value)
    }

    /// The shortest encoding of a global offset.
    public static func global(_ offset: UInt32) -> EV3Parameter {
        if offset < 32 { return .gv0(UInt8(offset)) }
        if let byte = UInt8(exactly: offset) { return .gv1(byte) }
        if let short = UInt16(exactly: offset) { return .gv2(short) }
        return .gv4(offset)
    }

    /// The shortest encoding of a local offset.
    public static func local(_ offset: UInt32) -> EV3Parameter {
        if offset < 32 { return .lv0(UInt8(offset)) }
        if let byte = UInt8(exactly: offset) { return .lv1(byte) }
        if let short = UInt16(exactly: offset) { return .lv2(short) }
        return .lv4(offset)
    }

    /// The encoded bytes; throws for short forms out of range and strings holding a NUL.
    public func encoded() throws(EV3EncodingError) -> [UInt8] {
        var bytes: [UInt8] = []
        try encode(into: &bytes)
        return bytes
    }

    /// Appends the encoded bytes; throws (appending nothing) for values the form cannot carry.
    public func encode(into bytes: inout [UInt8]) throws(EV3EncodingError) {
        switch self {
        case .lc0(let value):
            guard Self.shortConstants.contains(Int(value)) else {
                throw .outOfRange("LC0", value: Int(value), allowed: Self.shortConstants)
            }
            bytes.append(UInt8(bitPattern: value) & 0x3F)
        case .lc1(let value): bytes += [0x81, UInt8(bitPattern: value)]
        case .lc2(let value): bytes.append(0x82); appendLittleEndian(UInt16(bitPattern: value), to: &bytes)
        case .lc4(let value): bytes.append(0x83); appendLittleEndian(UInt32(bitPattern: value), to: &bytes)
        case .lcs(let string):
            guard !string.utf8.contains(0) else { throw .invalidString("LCS", reason: "contains a NUL byte") }
            bytes.append(0x84)
            bytes += string.utf8
            bytes.append(0)
        case .lv0(let offset): bytes.append(try Self.shortOffset(offset, "LV0") | 0x40)
        case .lv1(let offset): bytes += [0xC1, offset]
        case .lv2(let offset): bytes.append(0xC2); appendLittleEndian(offset, to: &bytes)
        case .lv4(let offset): bytes.append(0xC3); appendLittleEndian(offset, to: &bytes)
        case .gv0(let offset): bytes.append(try Self.shortOffset(offset, "GV0") | 0x60)
        case .gv1(let offset): bytes += [0xE1, offset]
        case .gv2(let offset): bytes.append(0xE2); appendLittleEndian(offset, to: &bytes)
        case .gv4(let offset): bytes.append(0xE3); appendLittleEndian(offset, to: &bytes)
        }
    }

    private static func shortOffset(_ offset: UInt8, _ form: String) throws(EV3EncodingError) -> UInt8 {
        guard offset < 32 else { throw .outOfRange(form, value: Int(offset), allowed: 0...31) }
        return offset
    }
}

/// Appends `value` least significant byte first, as the brick stores every multi-byte number.
func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
    for index in 0..<(T.bitWidth / 8) { bytes.append(UInt8(truncatingIfNeeded: value >> (index * 8))) }
}

/// Reads a little-endian integer from the start of `bytes`, which must hold enough of them.
func readLittleEndian<T: FixedWidthInteger>(_ type: T.Type, _ bytes: some Collection<UInt8>) -> T {
    var value: T = 0
    for (index, byte) in bytes.prefix(T.bitWidth / 8).enumerated() {
        value |= T(truncatingIfNeeded: byte) << (index * 8)
    }
    return value
}
