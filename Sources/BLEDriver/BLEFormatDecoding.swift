import BLEFormats
import BLEModels
import BridgeConfig
import BridgeCore
import Support

/// One `ble.formats` item as decoded: every key checked where it is written, so `check-config` points at each
/// problem's line and column; the format is built only when all of it is valid.
struct ConfigFormat: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case name, match, fields }

    /// The format, or nil when it was malformed (already reported, so the config does not load).
    let format: UserFormat?

    init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        let name: String = reader.value(.name, default: "")
        if name.allSatisfy(\.isWhitespace) { reader.problem(.name, "needs a name (shown as the model)") }
        if !reader.container.contains(.match) {
            reader.collector.add(reader.path, "needs a match: {manufacturer_id, service_data or name}")
        }
        let match = reader.value(.match, default: ConfigFormatMatch())
        let fields: [ConfigField] = reader.value(.fields, default: [])
        if fields.isEmpty { reader.collector.add(reader.path + ["fields"], "needs at least one field", atKey: true) }
        var keys: Set<String> = []
        for (index, field) in fields.enumerated() where !keys.insert(field.key).inserted {
            reader.collector.add(reader.path + ["fields", "Index \(index)", "key"], "\"\(field.key)\" is used twice")
        }
        let built = fields.compactMap(\.field)
        guard !name.allSatisfy(\.isWhitespace), let source = match.source, !built.isEmpty, built.count == fields.count else {
            format = nil
            return
        }
        format = UserFormat(name: name, source: source, prefix: match.prefix, localName: match.localName, fields: built)
    }
}

/// A format's `match`: `manufacturer_id` (a number, `0xFFF1` or 65521) or `service_data` (a UUID), or only
/// `name` (a glob: the data under the company id that changed last); `prefix` (hex) and `name` narrow it.
struct ConfigFormatMatch: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case manufacturerID = "manufacturer_id", serviceData = "service_data", name, prefix
    }

    /// Where the payload comes from; nil when malformed (already reported).
    let source: UserFormat.Source?
    let prefix: [UInt8]
    let localName: Glob?

    init() {
        source = nil
        prefix = []
        localName = nil
    }

    init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        var source: UserFormat.Source?
        var valid = true
        if let company: Number = reader.optional(.manufacturerID) {
            if let id = company.value, (0...0xFFFF).contains(id) {
                source = .manufacturer(UInt16(id))
            } else {
                reader.problem(.manufacturerID, "a company id is 0 to 0xFFFF")
                valid = false
            }
        }
        if let text: String = reader.optional(.serviceData) {
            do throws(BLEFormatError) {
                let uuid = try BLEUUID(text)
                if source != nil {
                    reader.problem(.serviceData, "give manufacturer_id or service_data, not both")
                    valid = false
                }
                source = .service(uuid)
            } catch {
                reader.problem(.serviceData, error.description)
                valid = false
            }
        }
        var glob: Glob?
        if let text: String = reader.optional(.name) {
            do throws(GlobError) { glob = try Glob(text) } catch {
                reader.problem(.name, error.description)
                valid = false
            }
        }
        var prefix: [UInt8] = []
        if let text: String = reader.optional(.prefix) {
            do throws(HexError) { prefix = try Hex.bytes(text) } catch {
                reader.problem(.prefix, error.description)
                valid = false
            }
        }
        if source == nil, glob != nil, valid { source = .latestManufacturer }
        if source == nil, valid {
            reader.collector.add(reader.path, "needs manufacturer_id, service_data or name")
        }
        self.source = valid ? source : nil
        self.prefix = prefix
        localName = glob
    }
}

/// A whole number written in decimal or as `0x…` hex text.
struct Number: Decodable {
    let value: Int?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            value = number
            return
        }
        let text = try container.decode(String.self)
        let digits = text.hasPrefix("0x") || text.hasPrefix("0X") ? text.dropFirst(2) : Substring(text)
        value = Int(digits, radix: text.count == digits.count ? 10 : 16)
    }
}

/// One field of a format: `key`, `offset`, `type`, and optionally `scale`, `add`, `unit`, `device_class`,
/// `state_class` and `name`.
struct ConfigField: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case key, offset, type, scale, add, unit, deviceClass = "device_class", stateClass = "state_class", name
    }

    /// Keys the bridge itself puts into every BLE device's state.
    static let reserved: Set<String> = ["rssi", "signal", "last_seen", "status", "encrypted", "gatt"]

    let key: String
    /// The field, or nil when malformed (already reported).
    let field: UserFormat.Field?

    init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        key = reader.value(.key, default: "")
        var valid = true
        let allowed = key.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        if key.isEmpty || !allowed {
            reader.problem(.key, "a state key is lowercase letters, digits and _")
            valid = false
        } else if Self.reserved.contains(key) {
            reader.problem(.key, "\"\(key)\" is a key the bridge sets itself")
            valid = false
        }
        let offset: Int = reader.value(.offset, default: -1)
        if !(0...254).contains(offset) {
            reader.problem(.offset, "needs an offset from 0 to 254")
            valid = false
        }
        var type: UserFormat.FieldType?
        let typeName: String = reader.value(.type, default: "")
        type = UserFormat.FieldType(rawValue: typeName.lowercased())
        if type == nil {
            let known = UserFormat.FieldType.allCases.map(\.rawValue).joined(separator: " ")
            reader.problem(.type, "\"\(typeName)\" is not a field type (\(known))")
            valid = false
        }
        let scale: Double = reader.value(.scale, default: 1)
        let add: Double = reader.value(.add, default: 0)
        if !scale.isFinite || scale == 0 { reader.problem(.scale, "must be a number other than 0") }
        let unit: String? = reader.optional(.unit)
        let deviceClass: String? = reader.optional(.deviceClass)
        let stateClass: String = reader.value(.stateClass, default: "measurement")
        if !["measurement", "total", "total_increasing"].contains(stateClass) {
            reader.problem(.stateClass, "\"\(stateClass)\" is not a state class (measurement, total, total_increasing)")
            valid = false
        }
        let words = key.split(separator: "_").joined(separator: " ")
        let name: String = reader.value(.name, default: words.prefix(1).uppercased() + words.dropFirst())
        guard valid, let type, scale.isFinite, scale != 0 else {
            field = nil
            return
        }
        let quantity = Quantity(key, name: name, unit: unit, deviceClass: deviceClass, stateClass: stateClass)
        field = UserFormat.Field(quantity: quantity, offset: offset, type: type, scale: scale, add: add)
    }
}
