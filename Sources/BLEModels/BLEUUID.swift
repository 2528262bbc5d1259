import Support

/// A GATT service or characteristic UUID in its canonical form: lowercase, 128-bit, with dashes, so that
/// `fff0`, `0xFFF0` and `0000fff0-0000-1000-8000-00805f9b34fb` compare equal.
public struct BLEUUID: Sendable, Hashable, CustomStringConvertible {
    /// The lowercase 128-bit text, e.g. `0000fff0-0000-1000-8000-00805f9b34fb`.
    public let description: String

    /// The Bluetooth base UUID that 16- and 32-bit UUIDs abbreviate.
    static let baseSuffix = "-0000-1000-8000-00805f9b34fb"

    /// Wraps text already in canonical form, for constants.
    init(canonical: String) { description = canonical }

    /// The 128-bit form of a 16-bit UUID assigned by the Bluetooth SIG, e.g. `0x180D` (Heart Rate).
    public init(uuid16: UInt16) {
        description = "0000" + Hex.byte(UInt8(uuid16 >> 8), uppercase: false) + Hex.byte(UInt8(uuid16 & 0xFF), uppercase: false)
            + Self.baseSuffix
    }

    /// The 16-bit value when the UUID is one of the Bluetooth base UUIDs (`0000xxxx-0000-1000-8000-00805f9b34fb`).
    public var uuid16: UInt16? {
        guard description.hasPrefix("0000"), description.hasSuffix(Self.baseSuffix) else { return nil }
        return UInt16(description.dropFirst(4).prefix(4), radix: 16)
    }

    /// Parses a 16-bit (`fff0`, `0x180D`), 32-bit or full 128-bit UUID (with or without dashes).
    public init(_ text: String) throws(BLEFormatError) {
        // BlueZ sends every UUID (service data keys with each advert, too) in the canonical form already.
        if Self.isCanonical(text) {
            description = text
            return
        }
        let lower = text.lowercased()
        let body = lower.hasPrefix("0x") ? String(lower.dropFirst(2)) : lower
        let isHex = { (part: Substring) in !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isHexDigit } }
        switch body.count {
        case 4 where isHex(body[...]):
            description = "0000" + body + Self.baseSuffix
        case 8 where isHex(body[...]):
            description = body + Self.baseSuffix
        case 32 where isHex(body[...]) && !lower.hasPrefix("0x"):
            let digits = Array(body)
            let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }
            description = groups.joined(separator: "-")
        case 36 where !lower.hasPrefix("0x"):
            let groups = body.split(separator: "-", omittingEmptySubsequences: false)
            guard groups.map(\.count) == [8, 4, 4, 4, 12], groups.allSatisfy(isHex) else {
                throw BLEFormatError("UUID \"\(text)\" is not in the form 0000fff0-0000-1000-8000-00805f9b34fb")
            }
            description = body
        default:
            throw BLEFormatError("UUID \"\(text)\" is not a 16-bit (fff0), 32-bit or 128-bit UUID")
        }
    }

    /// Whether `text` is already lowercase, 128-bit and dashed, checked on its bytes without copying it.
    private static func isCanonical(_ text: String) -> Bool {
        var count = 0
        for byte in text.utf8 {
            switch count {
            case 8, 13, 18, 23: guard byte == UInt8(ascii: "-") else { return false }
            default: guard (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) else { return false }
            }
            count += 1
            if count > 36 { return false }
        }
        return count == 36
    }

    /// The 16-bit short form (`fff0`) when the UUID is one of the Bluetooth base UUIDs, else the full text.
    public var short: String {
        guard description.hasPrefix("0000"), description.hasSuffix(Self.baseSuffix) else { return description }
        return String(description.dropFirst(4).prefix(4))
    }
}
