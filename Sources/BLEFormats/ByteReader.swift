/// Reads fields from a payload front to back; every read checks the length first, so a short payload is a
/// `truncated` failure naming where the field started, never an out-of-range trap.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Bytes not read yet.
    var remaining: Int { bytes.count - offset }

    /// The next `count` bytes.
    mutating func take(_ count: Int) throws(DecodeFailure) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw .truncated(at: offset) }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func uint8() throws(DecodeFailure) -> UInt8 { try take(1).first ?? 0 }

    mutating func int8() throws(DecodeFailure) -> Int8 { Int8(bitPattern: try uint8()) }

    /// An unsigned little-endian integer of `size` bytes (1 to 4).
    mutating func littleEndian(_ size: Int) throws(DecodeFailure) -> UInt32 {
        try take(size).reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A two's-complement little-endian integer of `size` bytes (1 to 4).
    mutating func signedLittleEndian(_ size: Int) throws(DecodeFailure) -> Int32 {
        Self.signExtend(try littleEndian(size), size: size)
    }

    /// An unsigned big-endian integer of `size` bytes (1 to 4).
    mutating func bigEndian(_ size: Int) throws(DecodeFailure) -> UInt32 {
        try take(size).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A two's-complement big-endian integer of `size` bytes (1 to 4).
    mutating func signedBigEndian(_ size: Int) throws(DecodeFailure) -> Int32 {
        Self.signExtend(try bigEndian(size), size: size)
    }

    /// Fails unless every byte was read.
    func finish() throws(DecodeFailure) {
        if remaining > 0 { throw .trailingBytes(at: offset) }
    }

    private static func signExtend(_ value: UInt32, size: Int) -> Int32 {
        let shift = UInt32(32 - 8 * size)
        return Int32(bitPattern: value << shift) >> shift
    }
}
