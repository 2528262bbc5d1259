/// A 48-bit Bluetooth device address (MAC), held as a number so tables keyed by it stay small.
public struct BluetoothAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The address as a number, the first octet most significant.
    public let value: UInt64

    /// Wraps 48 bits; higher bits are dropped.
    public init(value: UInt64) { self.value = value & 0xFFFF_FFFF_FFFF }

    /// Parses six hex octets separated by `:` or `-` (`AA:BB:CC:DD:EE:FF`), in any case.
    public init(_ text: String) throws(BluetoothAddressError) {
        let octets = text.split(separator: ":", omittingEmptySubsequences: false)
        let parts = octets.count == 6 ? octets : text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 6 else {
            throw BluetoothAddressError("address \"\(text)\" is not six octets like AA:BB:CC:DD:EE:FF")
        }
        var value: UInt64 = 0
        for part in parts {
            let ascii = Array(part.utf8)
            guard ascii.count == 2, let high = Hex.digit(ascii[0]), let low = Hex.digit(ascii[1]) else {
                throw BluetoothAddressError("address \"\(text)\" has a malformed octet \"\(part)\"")
            }
            value = value << 8 | UInt64(high << 4 | low)
        }
        self.value = value
    }

    /// The address from six octets least significant first, as BLE frames carry them (bytes past the sixth
    /// are not read). Inlinable, so a decoder reads it without a call per advert.
    @inlinable
    public init(littleEndian octets: ArraySlice<UInt8>) {
        var value: UInt64 = 0
        for (shift, octet) in octets.prefix(6).enumerated() { value |= UInt64(octet) << (8 * UInt64(shift)) }
        self.init(value: value)
    }

    /// The six octets, most significant (the first written) first.
    public var octets: [UInt8] {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return bytes
    }

    /// Appends the six octets to `bytes`, most significant first, or least significant first as BLE frames
    /// carry them: a nonce is built in place, without an array per address.
    @inlinable
    public func append(to bytes: inout [UInt8], littleEndian: Bool = false) {
        for index in 0..<6 {
            let octet = littleEndian ? index : 5 - index
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(octet))))
        }
    }

    /// BlueZ's spelling: uppercase octets joined by colons.
    public var description: String { Hex.string(octets, uppercase: true, separator: ":") }

    /// The form device ids use (an EV3 brick's serial number is the same): twelve lowercase digits, no colons.
    public var compact: String { Hex.string(octets) }

    /// Orders numerically, which is also the order of the text.
    public static func < (lhs: BluetoothAddress, rhs: BluetoothAddress) -> Bool { lhs.value < rhs.value }
}

/// Why text is not a Bluetooth address.
public struct BluetoothAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, quoting the offending text.
    public let description: String

    init(_ description: String) { self.description = description }
}
