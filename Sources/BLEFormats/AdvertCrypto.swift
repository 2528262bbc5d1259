public import Support

/// Encrypted BTHome v2: the info byte (bit 0 set), the MAC when bit 1 is, the objects encrypted with AES-CCM,
/// a 4-byte counter and a 4-byte tag. The nonce is the sender's MAC in display order, the UUID `D2 FC`, the
/// info byte and the counter; there is no associated data.
extension BTHome {
    /// The counter below which a device may have restarted: a counter that does not grow is a replay only from
    /// here on (as bthome-ble decides).
    public static let replayFloor: UInt32 = 100

    /// Decrypts the objects of an encrypted payload; nil when the tag does not match the key.
    static func open(_ payload: [UInt8], info: Info, sender: BluetoothAddress?, key: BindKey) throws(DecodeFailure)
        -> (objects: [UInt8], counter: UInt32)?
    {
        let start = info.hasMAC ? 7 : 1
        let end = payload.count
        guard end >= start + 8 else { throw .truncated(at: min(start, end)) }
        var mac = sender
        if info.hasMAC { mac = BluetoothAddress(littleEndian: payload[1..<7]) }
        // A key of other than 16 bytes fails in the opener, as a wrong one does.
        guard let mac else { return nil }
        let counterBytes = payload[(end - 8)..<(end - 4)]
        let counter = counterBytes.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        // The MAC in display order, the UUID, the info byte and the counter as it came.
        var nonce: [UInt8] = []
        nonce.reserveCapacity(13)
        mac.append(to: &nonce)
        nonce.append(0xD2)
        nonce.append(0xFC)
        nonce.append(info.raw)
        nonce += counterBytes
        guard let objects = key.opener.open(payload[start..<(end - 8)], tag: payload[(end - 4)...], nonce: nonce) else {
            return nil
        }
        return (objects, counter)
    }

    /// Encrypts objects as a device with `key` would, for tests: the payload for the info byte `0x41` (or `0x45`
    /// when trigger based), without MAC.
    public static func seal(
        _ objects: [UInt8], sender: BluetoothAddress, key: BindKey, counter: UInt32, triggerBased: Bool = false
    ) -> [UInt8]? {
        let info: UInt8 = triggerBased ? 0x45 : 0x41
        let counterBytes = (0..<4).map { UInt8(truncatingIfNeeded: counter >> (8 * UInt32($0))) }
        let nonce = sender.octets + [0xD2, 0xFC, info] + counterBytes
        guard let sealed = AESCCM.seal(objects, key: key.bytes, nonce: nonce) else { return nil }
        return [info] + sealed.ciphertext + counterBytes + sealed.tag
    }
}

extension MiBeacon {
    /// Encrypts objects as a v5 device with `key` would, for tests: frame control `5858` (v5, encrypted, MAC and
    /// objects present), the product id, the frame counter, the reversed MAC, the ciphertext, the 3-byte
    /// extended counter and the tag.
    public static func seal(
        _ objects: [UInt8], sender: BluetoothAddress, product: UInt16, counter: UInt8, extended: UInt32, key: BindKey
    ) -> [UInt8]? {
        var mac: [UInt8] = []
        sender.append(to: &mac, littleEndian: true)
        let header: [UInt8] = [0x58, 0x58, UInt8(product & 0xFF), UInt8(product >> 8), counter]
        let extendedBytes = (0..<3).map { UInt8(truncatingIfNeeded: extended >> (8 * UInt32($0))) }
        guard key.bytes.count == 16,
            let sealed = AESCCM.seal(
                objects, key: key.bytes, nonce: mac + Array(header[2..<5]) + extendedBytes, associatedData: [0x11])
        else { return nil }
        return header + mac + sealed.ciphertext + extendedBytes + sealed.tag
    }
}
