/// The objects of MiBeacon frames: `id u16, length u8, value`, little-endian. Ids this decoder does not know
/// are skipped (their length is known); a known id with a value of the wrong size, or a value out of range, is
/// undecodable, which is also how a wrong v2/v3 key shows.
enum MiBeaconObjects {
    /// Products whose illuminance objects (`1007`, `000F`) only say light or dark: 100 is light.
    static let lightOnly: Set<UInt16> = [0x07F6, 0x098B, 0x0A8D]
    /// Products whose motion object `000F` carries illuminance in lux (CGPR1).
    static let motionWithLux: Set<UInt16> = [0x0A83]
    /// The dimmer YLKG07YL/YLKG08YL, whose button object also carries turns.
    static let dimmers: Set<UInt16> = [0x03B6]

    /// Every object of a decrypted or plain frame body, in order.
    static func read(_ bytes: ArraySlice<UInt8>, product: UInt16) throws(DecodeFailure) -> [Measurement] {
        var reader = ByteReader(bytes)
        var result: [Measurement] = []
        while reader.remaining > 0 {
            let start = reader.offset
            let value: ArraySlice<UInt8>
            let id: UInt16
            do throws(DecodeFailure) {
                id = UInt16(try reader.littleEndian(2))
                value = try reader.take(Int(try reader.uint8()))
            } catch {
                throw .truncated(at: start)
            }
            let found = try measurements(id, value, product: product)
            // Nearly every frame carries one object: its array is the result, not copied into another.
            if result.isEmpty { result = found } else { result += found }
        }
        return result
    }

    /// The values of one object (a slice of the frame, read in place); empty for ids this decoder does not read.
    static func measurements(_ id: UInt16, _ value: ArraySlice<UInt8>, product: UInt16) throws(DecodeFailure) -> [Measurement] {
        var reader = ByteReader(value)
        // The first byte, for one-byte objects (whose size is checked before it is used).
        let byte = value.first ?? 0
        func size(_ expected: Int) throws(DecodeFailure) {
            guard value.count == expected else {
                throw .invalidValue("MiBeacon object 0x\(String(id, radix: 16)) of \(value.count) bytes, expected \(expected)")
            }
        }
        switch id {
        case 0x1004:
            try size(2)
            return [Measurement(.temperature, Double(try reader.signedLittleEndian(2)) / 10)]
        case 0x1006:
            try size(2)
            return [try percent(.humidity, Double(try reader.littleEndian(2)) / 10)]
        case 0x100D:
            try size(4)
            let temperature = Double(try reader.signedLittleEndian(2)) / 10
            return [Measurement(.temperature, temperature), try percent(.humidity, Double(try reader.littleEndian(2)) / 10)]
        case 0x100A, 0x4803, 0x4C03, 0x5003:
            try size(1)
            return [try percent(.battery, Double(byte))]
        case 0x1007:
            try size(3)
            let lux = try reader.littleEndian(3)
            return lightOnly.contains(product)
                ? [Measurement(.lightDetected, .bool(lux == 100))] : [Measurement(.illuminance, Double(lux))]
        case 0x1008:
            try size(1)
            return [try percent(.moisture, Double(byte))]
        case 0x1009:
            try size(2)
            return [Measurement(.conductivity, Double(try reader.littleEndian(2)))]
        case 0x1014, 0x4806:
            try size(1)
            return [Measurement(.waterLeak, .bool(byte > 0))]
        case 0x1015:
            try size(1)
            return [Measurement(.smoke, .bool(byte > 0))]
        case 0x1018:
            try size(1)
            return [Measurement(.lightDetected, .bool(byte > 0))]
        case 0x1017:
            // Seconds without motion; the Mi Home app counts up to 30 as motion.
            try size(4)
            return [Measurement(.occupancy, .bool(try reader.littleEndian(4) <= 30))]
        case 0x4818:
            try size(2)
            return [Measurement(.occupancy, .bool(try reader.littleEndian(2) <= 30))]
        case 0x101B:
            try size(4)
            return [Measurement(.occupancy, .bool(false))]
        case 0x484E:
            // XMOSB01XS: 1 someone there, 0 and 2 no one; others: anything but 0 is someone.
            try size(1)
            return [Measurement(.occupancy, .bool(product == 0x4683 ? byte == 1 : byte > 0))]
        case 0x000F:
            try size(3)
            let lux = try reader.littleEndian(3)
            var result = [Measurement(.occupancy, .bool(true))]
            if motionWithLux.contains(product) { result.append(Measurement(.illuminance, Double(lux))) }
            if lightOnly.contains(product) { result.append(Measurement(.lightDetected, .bool(lux >= 100))) }
            return result
        case 0x4A08:
            try size(4)
            return [Measurement(.occupancy, .bool(true)), Measurement(.illuminance, try float(&reader, places: 1))]
        case 0x4805:
            try size(4)
            return [Measurement(.illuminance, try float(&reader, places: 1))]
        case 0x1019:
            // 0 open, 1 closed, 2 left open (open too), 3 the sensor was reset (no state).
            try size(1)
            return byte < 3 ? [Measurement(.contact, .bool(byte == 1))] : []
        case 0x4804, 0x4A12:
            // 1 open, 2 closed.
            try size(1)
            return (1...2).contains(byte) ? [Measurement(.contact, .bool(byte == 2))] : []
        case 0x4A1A:
            try size(1)
            return byte == 1 ? [Measurement(.contact, .bool(false))] : []
        case 0x4A01, 0x4E01:
            try size(1)
            return [Measurement(.batteryLow, .bool(byte > 0))]
        case 0x4801:
            try size(4)
            return [Measurement(.temperature, try float(&reader, places: 1))]
        case 0x4C01:
            try size(4)
            return [Measurement(.temperature, try float(&reader, places: 2))]
        case 0x4802, 0x4C02:
            try size(1)
            return [try percent(.humidity, Double(byte))]
        case 0x4C08:
            try size(4)
            return [try percent(.humidity, try float(&reader, places: 1))]
        case 0x4A0C, 0x4E0C:
            return [Measurement(.button, .event("press"))]
        case 0x4A0D, 0x4E0D:
            return [Measurement(.button, .event("double_press"))]
        case 0x4A0E, 0x4E0E:
            return [Measurement(.button, .event("long_press"))]
        case 0x4A13:
            try size(1)
            return byte == 1 ? [Measurement(.button, .event("press"))] : []
        case 0x1001:
            try size(3)
            return button(value, product: product)
        default:
            return []
        }
    }

    /// Object `1001`: which button (0 is `button`, n is `button_<n+1>`), a value, and the kind of press: 0
    /// single, 1 double, 2 long, 3 triple. The dimmer YLKG07YL sends 3 for presses (the value counts them) and 4
    /// for turns (the value is the signed number of steps).
    static func button(_ value: ArraySlice<UInt8>, product: UInt16) -> [Measurement] {
        let start = value.startIndex
        let (index, amount, kind) = (Int(value[start]), Int8(bitPattern: value[start + 1]), value[start + 2])
        if dimmers.contains(product) {
            switch kind {
            case 3: return [Measurement(.button, .event("press"))]
            case 4:
                return [
                    Measurement(.dimmer, .event(amount < 0 ? "rotate_left" : "rotate_right")),
                    Measurement(.dimmerSteps, Double(amount.magnitude)),
                ]
            default: return []
            }
        }
        let names: [UInt8: String] = [0: "press", 1: "double_press", 2: "long_press", 3: "triple_press"]
        guard let name = names[kind] else { return [] }
        let quantity = index == 0 ? Quantity.button : Quantity.button.keyed("button_\(index + 1)", name: "Button \(index + 1)")
        return [Measurement(quantity, .event(name))]
    }

    /// A percentage, which a sensor never sends above 100.
    static func percent(_ quantity: Quantity, _ value: Double) throws(DecodeFailure) -> Measurement {
        guard value <= 100 else { throw .invalidValue("\(quantity.key) \(value) % is above 100 %") }
        return Measurement(quantity, value)
    }

    /// A little-endian float32, rounded to `places` decimals; not-a-number and infinities are undecodable.
    static func float(_ reader: inout ByteReader, places: Int) throws(DecodeFailure) -> Double {
        let value = Double(Float(bitPattern: try reader.littleEndian(4)))
        guard value.isFinite else { throw .invalidValue("a float that is not a number") }
        let scale = [1.0, 10, 100, 1000][min(places, 3)]
        return (value * scale).rounded() / scale
    }
}
