/// Reads fields from a payload front to back; every read checks the length first, so a short payload is a
/// `truncated` failure naming where the field started, never an out-of-range trap. It reads a slice in place:
/// a frame's objects and values are read where they are, not copied into arrays of their own.
struct ByteReader {
    let bytes: ArraySlice<UInt8>
    /// Counted from the start of `bytes`, whatever its indices.
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.init(bytes[...], offset: offset)
    }

    init(_ bytes: ArraySlice<UInt8>, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Bytes not read yet.
    var remaining: Int { bytes.count - offset }

    /// The next `count` bytes.
    mutating func take(_ count: Int) throws(DecodeFailure) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw .truncated(at: offset) }
        let start = bytes.startIndex + offset
        offset += count
        return bytes[start..<start + count]
    }

    mutating func uint8() throws(DecodeFailure) -> UInt8 {
        guard remaining > 0 else { throw .truncated(at: offset) }
        defer { offset += 1 }
        return bytes[bytes.startIndex + offset]
    }

    mutating func int8() throws(DecodeFailure) -> Int8 { Int8(bitPattern: try uint8()) }

    /// An unsigned little-endian integer of `size` bytes (1 to 4).
    mutating func littleEndian(_ size: Int) throws(DecodeFailure) -> UInt32 {
        guard size >= 0, size <= remaining else { throw .truncated(at: offset) }
        let start = bytes.startIndex + offset
        offset += size
        var value: UInt32 = 0
        for index in (start..<start + size).reversed() { value = value << 8 | UInt32(bytes[index]) }
        return value
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
