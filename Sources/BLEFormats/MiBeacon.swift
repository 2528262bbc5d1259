public import BLEModels
public import Support

/// Xiaomi MiBeacon adverts (`ServiceData["0000fe95-…"]`): a frame-control word, the product id, a frame
/// counter, then optionally the sender's MAC (reversed), a capability byte (and an I/O byte when it has bit
/// 5), and objects `id u16, length u8, value`, one per advert as a rule. v4/v5 frames may be AES-CCM encrypted
/// with the device's 16-byte bindkey (4-byte tag, associated data `11`); v2/v3 frames with a 12-byte key and
/// no usable tag.
public enum MiBeacon {
    /// The service data UUID, `FE95`.
    public static let service = BLEUUID(uuid16: 0xFE95)

    /// The frame-control word, little-endian in bytes 0–1.
    public struct FrameControl: Sendable, Hashable {
        /// The raw word.
        public let raw: UInt16
        /// Bit 3: the objects are encrypted.
        public var isEncrypted: Bool { raw & 0x0008 != 0 }
        /// Bit 4: the sender's MAC follows the header.
        public var hasMAC: Bool { raw & 0x0010 != 0 }
        /// Bit 5: a capability byte follows.
        public var hasCapability: Bool { raw & 0x0020 != 0 }
        /// Bit 6: the frame carries objects (otherwise it only announces the device).
        public var hasObjects: Bool { raw & 0x0040 != 0 }
        /// Bit 7: a mesh frame, which this decoder does not read.
        public var isMesh: Bool { raw & 0x0080 != 0 }
        /// Bits 12–15.
        public var version: Int { Int(raw >> 12) }
    }

    /// Decodes one MiBeacon payload. An encrypted frame needs `key`: without one it is `encrypted`, with one
    /// whose tag does not match (or, for v2/v3, whose objects make no sense) it is `wrongKey`. The reading
    /// carries the product's model, and the frame counter as its packet id.
    public static func decode(_ payload: [UInt8], sender: BluetoothAddress? = nil, key: BindKey? = nil) -> Decoded {
        guard !payload.isEmpty else { return .undecodable(.empty) }
        var reader = ByteReader(payload)
        do throws(DecodeFailure) {
            let control = FrameControl(raw: UInt16(try reader.littleEndian(2)))
            let product = UInt16(try reader.littleEndian(2))
            let counter = try reader.uint8()
            guard !control.isMesh else { throw .invalidValue("MiBeacon mesh frames are not read") }
            guard control.version >= 2 else { throw .invalidValue("MiBeacon version \(control.version), not 2 to 5") }
            guard let model = MiBeaconModels.model(product) else {
                throw .invalidValue("MiBeacon product 0x\(String(product, radix: 16)) is no sensor this decoder knows")
            }
            var mac = sender
            if control.hasMAC {
                // Little-endian in the frame.
                let address = BluetoothAddress(littleEndian: try reader.take(6))
                if let sender, sender != address { throw .addressMismatch(address) }
                mac = address
            }
            if control.hasCapability, try reader.uint8() & 0x20 != 0 { _ = try reader.uint8() }
            guard control.hasObjects else { return .reading(Reading([], packetID: counter, model: model)) }
            let start = reader.offset
            let objects: ArraySlice<UInt8>
            if control.isEncrypted {
                guard let key, let mac else { return .encrypted }
                if control.version >= 4 {
                    guard let plain = try openV4(payload, objectsAt: start, mac: mac, key: key) else { return .wrongKey }
                    objects = plain[...]
                } else {
                    objects = try openLegacy(payload, objectsAt: start, mac: mac, key: key)[...]
                }
            } else {
                objects = payload[start...]
            }
            let measurements: [Measurement]
            do throws(DecodeFailure) {
                measurements = try MiBeaconObjects.read(objects, product: product)
            } catch {
                // Without a tag, a wrong v2/v3 key shows only as objects that do not fit together.
                if control.isEncrypted, control.version < 4 { return .wrongKey }
                throw error
            }
            return .reading(Reading(measurements, packetID: counter, model: model))
        } catch {
            return .undecodable(error)
        }
    }

    /// The associated data of v4/v5 frames.
    private static let associatedData: [UInt8] = [0x11]

    /// v4/v5: the objects' ciphertext, a 3-byte extended counter, a 4-byte tag; the nonce is the MAC
    /// (little-endian), product id and frame counter (header bytes 2–4) and the extended counter. Nil for a
    /// wrong tag, or a key that is not 16 bytes.
    private static func openV4(_ payload: [UInt8], objectsAt start: Int, mac: BluetoothAddress, key: BindKey)
        throws(DecodeFailure) -> [UInt8]?
    {
        let end = payload.count
        guard end - start >= 3 + 7 else { throw .truncated(at: 5) }
        var nonce: [UInt8] = []
        nonce.reserveCapacity(12)
        mac.append(to: &nonce, littleEndian: true)
        nonce += payload[2..<5]
        nonce += payload[(end - 7)..<(end - 4)]
        return key.opener.open(
            payload[start..<(end - 7)], tag: payload[(end - 4)...], nonce: nonce, associatedData: associatedData)
    }

    /// v2/v3: the objects' ciphertext, then 4 bytes of which the first 3 go into the nonce (the header, those 3
    /// bytes and the first 5 bytes of the little-endian MAC). The tag cannot be checked.
    private static func openLegacy(_ payload: [UInt8], objectsAt start: Int, mac: BluetoothAddress, key: BindKey)
        throws(DecodeFailure) -> [UInt8]
    {
        let end = payload.count
        guard end - start >= 3 + 4 else { throw .truncated(at: 5) }
        var nonce = Array(payload[0..<5]) + payload[(end - 4)..<(end - 1)]
        mac.append(to: &nonce, littleEndian: true)
        nonce.removeLast()
        guard let plain = AESCCM.keystream(Array(payload[start..<(end - 4)]), key: key.aesKey, nonce: nonce) else {
            throw .invalidValue("the key does not fit MiBeacon v2/v3")
        }
        return plain
    }
}
