import Support

extension BluetoothAddress {
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
