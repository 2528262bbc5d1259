import CDBus

/// Reads a message's body from its wire form, for the one hot signal whose shape a sink knows by heart (a
/// device's `PropertiesChanged`): libdbus's iterator walks the signature again for every look, and reading an
/// advert with it took a third of the loop thread's own time per signal. Every read is bounds-checked and
/// returns nil for anything out of place, so a sink falls back to `DBusBodyReader` for any other shape;
/// received bytes are never trusted, though libdbus has validated the body against its signature already.
public struct DBusWireReader {
    private let bytes: UnsafeRawBufferPointer
    private let bigEndian: Bool
    /// Where the next read starts, counted from the start of the message (alignment is counted from there).
    public private(set) var offset: Int

    /// A reader at the start of the body of a marshalled message; nil when the header does not add up.
    public init?(message bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 16, bytes[0] == UInt8(ascii: "l") || bytes[0] == UInt8(ascii: "B") else { return nil }
        self.bytes = bytes
        bigEndian = bytes[0] == UInt8(ascii: "B")
        offset = 12
        guard let fields = uint32(), let body = Self.aligned(16 + Int(fields), 8), body <= bytes.count else { return nil }
        offset = 4
        guard let length = uint32(), body + Int(length) == bytes.count else { return nil }
        offset = body
    }

    /// The whole message as marshalled, copied (to keep a sample of the wire form).
    public var message: [UInt8] { Array(bytes) }

    /// Whether the whole body has been read.
    public var isAtEnd: Bool { offset == bytes.count }

    private static func aligned(_ offset: Int, _ alignment: Int) -> Int? {
        let (sum, overflow) = offset.addingReportingOverflow(alignment - 1)
        return overflow ? nil : sum & ~(alignment - 1)
    }

    private mutating func align(_ alignment: Int) -> Bool {
        guard let next = Self.aligned(offset, alignment), next <= bytes.count else { return false }
        offset = next
        return true
    }

    private mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }

    /// A `u` (also an array's or string's length).
    public mutating func uint32() -> UInt32? {
        guard align(4), let raw = take(4) else { return nil }
        let value = raw.loadUnaligned(as: UInt32.self)
        return bigEndian ? UInt32(bigEndian: value) : UInt32(littleEndian: value)
    }

    /// A `q`.
    public mutating func uint16() -> UInt16? {
        guard align(2), let raw = take(2) else { return nil }
        let value = raw.loadUnaligned(as: UInt16.self)
        return bigEndian ? UInt16(bigEndian: value) : UInt16(littleEndian: value)
    }

    /// An `n`.
    public mutating func int16() -> Int16? { uint16().map { Int16(bitPattern: $0) } }

    /// An `s` or `o`: its bytes without the closing NUL, valid while the message is.
    public mutating func string() -> UnsafeRawBufferPointer? {
        guard let length = uint32(), let text = take(Int(length)), let end = take(1), end[0] == 0 else { return nil }
        return text
    }

    /// A `g` (a variant's signature): its bytes without the closing NUL.
    public mutating func signature() -> UnsafeRawBufferPointer? {
        guard let length = take(1), let text = take(Int(length[0])), let end = take(1), end[0] == 0 else { return nil }
        return text
    }

    /// An `ay`.
    public mutating func bytesArray() -> [UInt8]? {
        guard let length = uint32(), let data = take(Int(length)) else { return nil }
        return Array(data)
    }

    /// Starts an array whose elements align to `alignment` (8 for dictionary entries and structs); returns
    /// where its elements end. Each element is read with `element(alignment:end:)`.
    public mutating func array(alignment: Int) -> Int? {
        guard let length = uint32(), align(alignment), Int(length) <= bytes.count - offset else { return nil }
        return offset + Int(length)
    }

    /// Whether another element of an array ending at `end` follows; moves to its alignment if so.
    public mutating func element(alignment: Int, end: Int) -> Bool {
        guard offset < end else { return false }
        return align(alignment) && offset < end
    }
}

extension DBusBodyReader {
    /// Hands `body` a reader over the message's wire form (a copy libdbus makes, freed after the call); nil if
    /// the reader has no message or libdbus could not copy it.
    public func marshalled<Result>(_ body: (inout DBusWireReader) -> Result?) -> Result? {
        guard let message else { return nil }
        var data: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message, &data, &length) != 0, let data else { return nil }
        defer { dbus_free(data) }
        guard var reader = DBusWireReader(message: UnsafeRawBufferPointer(start: data, count: Int(length))) else { return nil }
        return body(&reader)
    }
}
