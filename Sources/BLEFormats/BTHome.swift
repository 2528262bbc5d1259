public import BLEModels
public import Support

/// BTHome v2 adverts: `ServiceData["0000fcd2-…"]`, a device-information byte, then objects `id, value…`.
public enum BTHome {
    /// The service data UUID, `FCD2`.
    public static let service = BLEUUID(uuid16: 0xFCD2)
    /// The longest payload accepted: an extended advert's data field.
    public static let maximumLength = 255

    /// Every object id this decoder reads, with its quantity (0x00, the packet id, as `count`), in id order.
    public static var objects: [(id: UInt8, quantity: Quantity)] {
        BTHomeObject.table.sorted { $0.key < $1.key }.map { ($0.key, $0.value.quantity) }
    }

    /// The device-information byte.
    public struct Info: Sendable, Hashable {
        /// The raw byte.
        public let raw: UInt8
        /// Bit 0: the objects are AES-CCM encrypted.
        public var isEncrypted: Bool { raw & 0x01 != 0 }
        /// Bit 1: the sender's MAC (reversed) follows the info byte.
        public var hasMAC: Bool { raw & 0x02 != 0 }
        /// Bit 2: the device advertises on events only, not at regular intervals.
        public var isTriggerBased: Bool { raw & 0x04 != 0 }
        /// Bits 5–7.
        public var version: Int { Int(raw >> 5) }
    }

    /// Decodes one BTHome service-data payload. Encrypted payloads without a key are recognised and left alone.
    /// An object id this decoder does not know has no known length, so decoding stops there and keeps what came
    /// before; a payload that ends inside an object is undecodable as a whole.
    ///
    /// With the device's `key`, an encrypted payload is decrypted (`wrongKey` when its tag does not match) and
    /// the reading carries its counter; a plain payload is then a `downgrade`, not values. The nonce needs the
    /// sender's address unless the payload carries it.
    public static func decode(_ payload: [UInt8], sender: BluetoothAddress? = nil, key: BindKey? = nil) -> Decoded {
        guard let first = payload.first else { return .undecodable(.empty) }
        guard payload.count <= maximumLength else { return .undecodable(.tooLong(payload.count)) }
        let info = Info(raw: first)
        guard info.version == 2 else { return .undecodable(.unsupportedVersion(info.version)) }
        var bytes = payload
        var counter: UInt32?
        if info.isEncrypted {
            guard let key, sender != nil || info.hasMAC else { return .encrypted }
            do throws(DecodeFailure) {
                guard let opened = try open(payload, info: info, sender: sender, key: key) else { return .wrongKey }
                bytes = Array(payload[0..<(info.hasMAC ? 7 : 1)]) + opened.objects
                counter = opened.counter
            } catch {
                return .undecodable(error)
            }
        } else if key != nil {
            return .undecodable(.downgrade)
        }
        var reader = ByteReader(bytes, offset: 1)
        var objects: [(quantity: Quantity, values: BTHomeObject.Values)] = []
        // An object takes at least two bytes: room for all of them at once.
        objects.reserveCapacity(bytes.count / 2)
        var packetID: UInt8?
        var stoppedEarly: DecodeFailure?
        do throws(DecodeFailure) {
            if info.hasMAC { _ = try reader.take(6) }
            while reader.remaining > 0 {
                let start = reader.offset
                let id = try reader.uint8()
                guard let object = BTHomeObject.table[id] else {
                    stoppedEarly = .unknownObject(id: id, at: start)
                    break
                }
                do throws(DecodeFailure) {
                    if id == 0x00 {
                        packetID = try reader.uint8()
                    } else {
                        objects.append((object.quantity, try object.read(&reader)))
                    }
                } catch {
                    throw .truncated(at: start)
                }
            }
        } catch {
            return .undecodable(error)
        }
        let (measurements, quiet) = numbered(objects)
        return .reading(
            Reading(measurements, packetID: packetID, stoppedEarly: stoppedEarly, quiet: quiet, counter: counter))
    }

    /// Keys of quantities that occur more than once in one advert get `_1`, `_2`, … in order (as bthome-ble
    /// does), counting objects that carried no event, so a four-button remote's third button is always
    /// `button_3`. Then the empty places are dropped; a button or dimmer that carried no event is `quiet`.
    static func numbered(_ objects: [(quantity: Quantity, values: BTHomeObject.Values)]) -> ([Measurement], [Quantity]) {
        // Most adverts carry each quantity once: then nothing is numbered and no table is needed, which keeps
        // string hashing off the path of every advert.
        let repeats = objects.indices.contains { index in
            objects[(index + 1)...].contains { $0.quantity.key == objects[index].quantity.key }
        }
        if !repeats {
            var result: [Measurement] = []
            result.reserveCapacity(objects.count)
            var quiet: [Quantity] = []
            for (group, values) in objects {
                if case .event = group.kind, values.first == nil { quiet.append(group) }
                values.forEach { result.append($0) }
            }
            return (result, quiet)
        }
        var totals: [String: Int] = [:]
        for object in objects { totals[object.quantity.key, default: 0] += 1 }
        var seen: [String: Int] = [:]
        var result: [Measurement] = []
        var quiet: [Quantity] = []
        for (group, values) in objects {
            let key = group.key
            seen[key, default: 0] += 1
            let index = seen[key] ?? 1
            let many = (totals[key] ?? 0) > 1
            func numbered(_ quantity: Quantity) -> Quantity {
                many ? quantity.keyed("\(quantity.key)_\(index)", name: "\(quantity.name) \(index)") : quantity
            }
            if case .event = group.kind, values.first == nil { quiet.append(numbered(group)) }
            values.forEach { result.append(Measurement(numbered($0.quantity), $0.value)) }
        }
        return (result, quiet)
    }
}

extension BTHomeObject {
    /// What one object carried: one place per value it can carry (a dimmer two, anything else one), kept inline
    /// rather than in an array of its own, as nearly every advert has several objects. A place is nil when the
    /// object carried nothing valid there (no event, a binary value other than 0 or 1, text that is not UTF-8).
    enum Values {
        case one(Measurement?)
        case two(Measurement?, Measurement?)

        /// The first place.
        var first: Measurement? {
            switch self {
            case .one(let value), .two(let value, _): value
            }
        }

        /// Hands over each value that is there, in order.
        func forEach(_ body: (Measurement) -> Void) {
            switch self {
            case .one(let value): value.map(body)
            case .two(let value, let second):
                value.map(body)
                second.map(body)
            }
        }
    }

    /// Reads the object's value.
    func read(_ reader: inout ByteReader) throws(DecodeFailure) -> Values {
        switch encoding {
        case .unsigned(let size):
            return .one(number(Double(try reader.littleEndian(size))))
        case .signed(let size):
            return .one(number(Double(try reader.signedLittleEndian(size))))
        case .binary:
            let raw = try reader.uint8()
            return .one(raw <= 1 ? Measurement(quantity, .bool(raw == 1)) : nil)
        case .button:
            let code = try reader.uint8()
            return .one(BTHomeEvents.button.first { $0.code == code }.map { Measurement(quantity, .event($0.name)) })
        case .dimmer:
            let code = try reader.uint8()
            let steps = try reader.uint8()
            guard let event = BTHomeEvents.dimmer.first(where: { $0.code == code }) else { return .two(nil, nil) }
            return .two(Measurement(quantity, .event(event.name)), Measurement(.dimmerSteps, Double(steps)))
        case .text:
            let bytes = try reader.take(Int(try reader.uint8()))
            return .one(String(validating: bytes, as: UTF8.self).map { Measurement(quantity, .text($0)) })
        case .raw:
            let bytes = try reader.take(Int(try reader.uint8()))
            return .one(Measurement(quantity, .text(Hex.string(bytes))))
        case .timestamp:
            return .one(Measurement(quantity, .text(ISOTimestamp.string(secondsSince1970: Int64(try reader.littleEndian(4))))))
        }
    }

    private func number(_ raw: Double) -> Measurement {
        Measurement(quantity, raw * Double(multiplier) / Double(divisor))
    }
}
