import Support

/// A GATT service or characteristic UUID, held as its 128 bits: `fff0`, `0xFFF0` and
/// `0000fff0-0000-1000-8000-00805f9b34fb` compare equal. Service data is keyed by it for every advert, so it
/// hashes and compares as two integers, not as 36 characters of text.
public struct BLEUUID: Sendable, Hashable, CustomStringConvertible {
    /// The first and last 64 bits.
    private let high: UInt64, low: UInt64

    /// The Bluetooth base UUID `00000000-0000-1000-8000-00805f9b34fb`, which 16- and 32-bit UUIDs abbreviate.
    private static let baseHigh: UInt64 = 0x1000, baseLow: UInt64 = 0x8000_0080_5f9b_34fb

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The 128-bit form of a 16-bit UUID assigned by the Bluetooth SIG, e.g. `0x180D` (Heart Rate).
    public init(uuid16: UInt16) { self.init(high: UInt64(uuid16) << 32 | Self.baseHigh, low: Self.baseLow) }

    /// The 16-bit value when the UUID is one of the Bluetooth base UUIDs (`0000xxxx-0000-1000-8000-00805f9b34fb`).
    public var uuid16: UInt16? {
        guard high >> 48 == 0, high & 0xFFFF_FFFF == Self.baseHigh, low == Self.baseLow else { return nil }
        return UInt16(truncatingIfNeeded: high >> 32)
    }

    /// Parses a 16-bit (`fff0`, `0x180D`), 32-bit or full 128-bit UUID (with or without dashes).
    public init(_ text: String) throws(BLEFormatError) {
        var bytes = Array(text.utf8)
        let prefixed = bytes.count > 2 && bytes[0] == UInt8(ascii: "0") && bytes[1] | 0x20 == UInt8(ascii: "x")
        if prefixed { bytes.removeFirst(2) }
        let parsed = bytes.withUnsafeBufferPointer { bytes -> BLEUUID? in
            switch bytes.count {
            case 4, 8: Self.abbreviated(bytes)
            case 32 where !prefixed: Self.full(bytes, dashed: false)
            case 36 where !prefixed: Self.full(bytes, dashed: true)
            default: nil
            }
        }
        guard let parsed else {
            if bytes.count == 36, !prefixed {
                throw BLEFormatError("UUID \"\(text)\" is not in the form 0000fff0-0000-1000-8000-00805f9b34fb")
            }
            throw BLEFormatError("UUID \"\(text)\" is not a 16-bit (fff0), 32-bit or 128-bit UUID")
        }
        self = parsed
    }

    /// Parses the dashed 128-bit form in either case (how BlueZ sends every UUID) from its UTF-8 bytes, so a
    /// key read off the bus needs no `String`; nil for anything else.
    public init?(dashed bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 36, let parsed = Self.full(bytes, dashed: true) else { return nil }
        self = parsed
    }

    /// 4 or 8 hex digits, on the base UUID.
    private static func abbreviated(_ bytes: UnsafeBufferPointer<UInt8>) -> BLEUUID? {
        var value: UInt64 = 0
        for byte in bytes {
            guard let digit = Hex.digit(byte) else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return BLEUUID(high: value << 32 | baseHigh, low: baseLow)
    }

    /// 32 hex digits, with dashes after the 8th, 12th, 16th and 20th when `dashed`.
    private static func full(_ bytes: UnsafeBufferPointer<UInt8>, dashed: Bool) -> BLEUUID? {
        var high: UInt64 = 0, low: UInt64 = 0, digits = 0
        for (index, byte) in bytes.enumerated() {
            if dashed, index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let digit = Hex.digit(byte) else { return nil }
            if digits < 16 { high = high << 4 | UInt64(digit) } else { low = low << 4 | UInt64(digit) }
            digits += 1
        }
        return BLEUUID(high: high, low: low)
    }

    /// The lowercase 128-bit text, e.g. `0000fff0-0000-1000-8000-00805f9b34fb`.
    public var description: String {
        let bytes = withUnsafeBytes(of: high.bigEndian, Array.init) + withUnsafeBytes(of: low.bigEndian, Array.init)
        let digits = Array(Hex.string(bytes).utf8)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(decoding: digits[$0], as: UTF8.self) }
            .joined(separator: "-")
    }

    /// The 16-bit short form (`fff0`) when the UUID is one of the Bluetooth base UUIDs, else the full text.
    public var short: String {
        guard let uuid16 else { return description }
        return Hex.string([UInt8(uuid16 >> 8), UInt8(uuid16 & 0xFF)])
    }
}
