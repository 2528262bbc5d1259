public import BLEModels
public import BridgeCore

/// A sensor layout described in the config (`ble.formats`) rather than in code: which adverts it matches and
/// where each value sits. Offsets count from the first byte after the company id (manufacturer data) or from
/// the first byte of the service data; a value is raw × `scale` + `add`.
public struct UserFormat: Sendable, Hashable {
    /// Where the payload comes from.
    public enum Source: Sendable, Hashable {
        /// `ManufacturerData[id]`.
        case manufacturer(UInt16)
        /// `ServiceData[uuid]`.
        case service(BLEUUID)
        /// The manufacturer data under the company id that changed last (a device matched by its name alone).
        case latestManufacturer
    }

    /// How a field's bytes make a number.
    public enum FieldType: String, Sendable, Hashable, CaseIterable {
        case int8, uint8, int16le, int16be, uint16le, uint16be, int24le, uint24le, int32le, uint32le, float32le

        /// The field's size in bytes.
        public var size: Int {
            switch self {
            case .int8, .uint8: 1
            case .int16le, .int16be, .uint16le, .uint16be: 2
            case .int24le, .uint24le: 3
            case .int32le, .uint32le, .float32le: 4
            }
        }
    }

    /// One value of the layout.
    public struct Field: Sendable, Hashable {
        /// What it measures: its state key, unit and Home Assistant metadata.
        public let quantity: Quantity
        /// Where it starts in the payload.
        public let offset: Int
        /// How its bytes are read.
        public let type: FieldType
        /// The factor applied to the raw number.
        public let scale: Double
        /// What is added after scaling.
        public let add: Double

        /// Creates a field.
        public init(quantity: Quantity, offset: Int, type: FieldType, scale: Double = 1, add: Double = 0) {
            self.quantity = quantity
            self.offset = offset
            self.type = type
            self.scale = scale
            self.add = add
        }
    }

    /// The format's name, shown as the device's model.
    public let name: String
    /// Where the payload comes from.
    public let source: Source
    /// Bytes the payload must start with.
    public let prefix: [UInt8]
    /// A glob the local name must match, when given.
    public let localName: Glob?
    /// The values, in the order written.
    public let fields: [Field]

    /// Creates a format.
    public init(name: String, source: Source, prefix: [UInt8] = [], localName: Glob? = nil, fields: [Field]) {
        self.name = name
        self.source = source
        self.prefix = prefix
        self.localName = localName
        self.fields = fields
    }

    /// The payload this format reads in an advert; nil when the advert does not match.
    public func payload(in advert: Advert) -> [UInt8]? {
        if let localName, !localName.matches(advert.name ?? "") { return nil }
        let payload: [UInt8]?
        switch source {
        case .manufacturer(let company): payload = advert.manufacturerData[company]
        case .service(let uuid): payload = advert.serviceData[uuid]
        case .latestManufacturer: payload = advert.currentCompanyData?.data
        }
        guard let payload, payload.starts(with: prefix) else { return nil }
        return payload
    }

    /// Decodes a matching payload: every field, or undecodable when one lies beyond its end or is not a number.
    public func decode(_ payload: [UInt8]) -> Decoded {
        var values: [Measurement] = []
        values.reserveCapacity(fields.count)
        for field in fields {
            guard field.offset + field.type.size <= payload.count else { return .undecodable(.truncated(at: field.offset)) }
            let raw = Self.number(payload, at: field.offset, as: field.type)
            // Rounded to 6 decimals, so 2506 × 0.01 reads as 25.06 rather than 25.060000000000002.
            let value = ((raw * field.scale + field.add) * 1e6).rounded() / 1e6
            guard value.isFinite else { return .undecodable(.invalidValue("\(field.quantity.key) is not a number")) }
            values.append(Measurement(field.quantity, value))
        }
        return .reading(Reading(values, model: SensorModel(manufacturer: "Custom", model: name)))
    }

    /// The raw number of a field; the caller has checked that its bytes are there.
    static func number(_ bytes: [UInt8], at offset: Int, as type: FieldType) -> Double {
        func unsigned(_ size: Int, bigEndian: Bool) -> UInt32 {
            var value: UInt32 = 0
            for index in 0..<size {
                let byte = UInt32(bytes[offset + (bigEndian ? index : size - 1 - index)])
                value = value << 8 | byte
            }
            return value
        }
        func signed(_ size: Int, bigEndian: Bool) -> Double {
            let shift = UInt32(32 - 8 * size)
            return Double(Int32(bitPattern: unsigned(size, bigEndian: bigEndian) << shift) >> shift)
        }
        switch type {
        case .int8: return signed(1, bigEndian: false)
        case .uint8: return Double(bytes[offset])
        case .int16le: return signed(2, bigEndian: false)
        case .int16be: return signed(2, bigEndian: true)
        case .uint16le: return Double(unsigned(2, bigEndian: false))
        case .uint16be: return Double(unsigned(2, bigEndian: true))
        case .int24le: return signed(3, bigEndian: false)
        case .uint24le: return Double(unsigned(3, bigEndian: false))
        case .int32le: return signed(4, bigEndian: false)
        case .uint32le: return Double(unsigned(4, bigEndian: false))
        case .float32le: return Double(Float(bitPattern: unsigned(4, bigEndian: false)))
        }
    }
}
