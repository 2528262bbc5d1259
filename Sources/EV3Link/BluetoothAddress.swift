/// A Bluetooth device address, e.g. a brick's `00:16:53:3F:0C:1E` (the brick's serial number is the same
/// twelve digits without colons).
public struct EV3BluetoothAddress: Sendable, Hashable, CustomStringConvertible {
    /// The six octets as written, most significant first.
    public let octets: [UInt8]

    /// Parses six hex octets separated by `:` or `-`.
    public init(_ text: String) throws(EV3LinkError) {
        let separator: Character = text.contains("-") ? "-" : ":"
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        let octets = parts.compactMap { part -> UInt8? in
            guard part.count == 2, part.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
            return UInt8(part, radix: 16)
        }
        guard parts.count == 6, octets.count == 6 else {
            throw .invalidEndpoint("\"\(text)\" is not a Bluetooth address like 00:16:53:3F:0C:1E")
        }
        self.octets = octets
    }

    /// Uppercase octets joined by colons.
    public var description: String { octets.map { hexPair($0, uppercase: true) }.joined(separator: ":") }

    /// The brick's serial number: the twelve digits, lowercase, no colons.
    public var serialNumber: String { octets.map { hexPair($0, uppercase: false) }.joined() }

    /// The address as `struct sockaddr_rc` holds it: BlueZ stores `bdaddr_t` least significant octet first.
    var socketAddress: SockaddrRC { SockaddrRC(bdaddr: octets.reversed(), channel: 1) }
}

/// `struct sockaddr_rc` from BlueZ's `<bluetooth/rfcomm.h>`, declared here because Swift's Glibc module has
/// no BlueZ headers: `sa_family_t rc_family` (2 bytes, host order), `bdaddr_t rc_bdaddr` (6 bytes, packed),
/// `uint8_t rc_channel`, then one byte of padding to the struct's 2-byte alignment: 10 bytes in all.
struct SockaddrRC {
    /// `AF_BLUETOOTH`, which Glibc's module does not export either.
    static let familyBluetooth: UInt16 = 31
    /// `BTPROTO_RFCOMM`.
    static let protocolRFCOMM: Int32 = 3

    var family: UInt16 = Self.familyBluetooth
    var bdaddr: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)
    var channel: UInt8

    /// An address for `channel` on the device whose `bdaddr_t` (least significant octet first) is `bdaddr`.
    init(bdaddr: [UInt8], channel: UInt8) {
        precondition(bdaddr.count == 6, "a bdaddr_t has six octets")
        self.bdaddr = (bdaddr[0], bdaddr[1], bdaddr[2], bdaddr[3], bdaddr[4], bdaddr[5])
        self.channel = channel
    }

    /// The length passed to connect(): the C struct's size, padding included.
    static var length: Int { MemoryLayout<SockaddrRC>.stride }

    /// The bytes connect() reads, padding zeroed.
    var bytes: [UInt8] {
        var copy = self
        var bytes = [UInt8](repeating: 0, count: Self.length)
        withUnsafeBytes(of: &copy) { raw in
            for index in 0..<MemoryLayout<SockaddrRC>.size { bytes[index] = raw[index] }
        }
        return bytes
    }
}

/// Two hex digits.
func hexPair(_ byte: UInt8, uppercase: Bool) -> String {
    let digits = String(byte, radix: 16, uppercase: uppercase)
    return digits.count == 1 ? "0" + digits : digits
}
