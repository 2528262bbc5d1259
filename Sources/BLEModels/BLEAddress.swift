public import BridgeCore

/// A Bluetooth device address (MAC), held as 48 bits so tables keyed by it stay small.
public struct BLEAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The address as a number, the first octet most significant.
    public let value: UInt64

    /// Wraps 48 bits; higher bits are dropped.
    public init(value: UInt64) { self.value = value & 0xFFFF_FFFF_FFFF }

    /// Parses six hex octets separated by `:` or `-` (`AA:BB:CC:DD:EE:FF`), in any case.
    public init(_ text: String) throws(BLEFormatError) {
        let octets = text.split(separator: ":", omittingEmptySubsequences: false)
        let parts = octets.count == 6 ? octets : text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 6 else {
            throw BLEFormatError("address \"\(text)\" is not six octets like AA:BB:CC:DD:EE:FF")
        }
        var value: UInt64 = 0
        for part in parts {
            // The digit check comes first: UInt8(_:radix:) would take a sign, as in "+A".
            guard part.utf8.count == 2, part.allSatisfy({ $0.isASCII && $0.isHexDigit }),
                let octet = UInt8(part, radix: 16)
            else {
                throw BLEFormatError("address \"\(text)\" has a malformed octet \"\(part)\"")
            }
            value = value << 8 | UInt64(octet)
        }
        self.value = value
    }

    /// BlueZ's spelling: uppercase octets joined by colons.
    public var description: String {
        (0..<6).map { index in
            hexByte(UInt8(truncatingIfNeeded: value >> (8 * UInt64(5 - index))), uppercase: true)
        }.joined(separator: ":")
    }

    /// The bridge's id for the device at this address, e.g. `ble_aabbccddeeff`.
    public var deviceID: DeviceID { .ble(mac: description) }

    /// Orders numerically, which is also the order of the text.
    public static func < (lhs: BLEAddress, rhs: BLEAddress) -> Bool { lhs.value < rhs.value }
}

/// Why an address or UUID in config or from the bus cannot be used.
public struct BLEFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, quoting the offending text.
    public let description: String

    init(_ description: String) { self.description = description }
}

/// Two hex digits; written by hand because the module avoids Foundation's `String(format:)`.
func hexByte(_ byte: UInt8, uppercase: Bool) -> String {
    let digits: [Character] = Array(uppercase ? "0123456789ABCDEF" : "0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}
