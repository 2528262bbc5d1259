import BLEFormats
import BLEModels
import BridgeCore
import Support
import TestSupport
import Testing

@Suite("Formats described in the config")
struct UserFormatTests {
    /// The example: company FFF1, prefix 01, int16le × 0.01 °C at 1, uint8 % at 3.
    static let acme = UserFormat(
        name: "acme_thermo", source: .manufacturer(0xFFF1), prefix: [0x01],
        fields: [
            UserFormat.Field(
                quantity: Quantity("temperature", name: "Temperature", unit: "°C", deviceClass: "temperature", stateClass: "measurement"),
                offset: 1, type: .int16le, scale: 0.01),
            UserFormat.Field(
                quantity: Quantity("humidity", name: "Humidity", unit: "%", deviceClass: "humidity", stateClass: "measurement"),
                offset: 3, type: .uint8),
        ])

    @Test("the example: values, units and the model from the format's name")
    func example() throws {
        let advert = Advert(manufacturerData: [0xFFF1: hex("01 CA 09 37")])
        let results = PassiveDecoder.decode(advert, formats: [], user: [Self.acme])
        let reading = try #require(results.first?.decoded.reading)
        #expect(results.map(\.format) == [.user])
        #expect(reading.state == ["temperature": 25.06, "humidity": 55])
        #expect(reading.measurements.first?.quantity.unit == "°C")
        #expect(reading.model == SensorModel(manufacturer: "Custom", model: "acme_thermo"))
    }

    @Test("a payload without the prefix, from another company or too short for a field is not read as the format")
    func matching() {
        #expect(PassiveDecoder.decode(Advert(manufacturerData: [0xFFF1: hex("02 CA 09 37")]), formats: [], user: [Self.acme]).isEmpty)
        #expect(PassiveDecoder.decode(Advert(manufacturerData: [0xFFF2: hex("01 CA 09 37")]), formats: [], user: [Self.acme]).isEmpty)
        #expect(Self.acme.decode(hex("01 CA 09")).failure == .truncated(at: 3))
    }

    static let types: [(UserFormat.FieldType, String, Double)] = [
        (.int8, "FE", -2), (.uint8, "FE", 254), (.int16le, "FE FF", -2), (.int16be, "FF FE", -2), (.uint16le, "34 12", 4660),
        (.uint16be, "12 34", 4660), (.int24le, "FE FF FF", -2), (.uint24le, "56 34 12", 1_193_046),
        (.int32le, "FE FF FF FF", -2), (.uint32le, "78 56 34 12", 305_419_896), (.float32le, "00 00 C0 3F", 1.5),
    ]

    @Test("every field type, with scale and add", arguments: types)
    func fieldTypes(type: UserFormat.FieldType, bytes: String, value: Double) throws {
        let quantity = Quantity("value", name: "Value")
        let plain = UserFormat(name: "t", source: .service(BLEUUID(uuid16: 0xFE00)), fields: [.init(quantity: quantity, offset: 0, type: type)])
        #expect(plain.decode(hex(bytes)).reading?.number("value") == value)
        #expect(type.size == hex(bytes).count)
        let scaled = UserFormat(
            name: "t", source: .service(BLEUUID(uuid16: 0xFE00)),
            fields: [.init(quantity: quantity, offset: 0, type: type, scale: 0.5, add: 10)])
        #expect(scaled.decode(hex(bytes)).reading?.number("value") == value * 0.5 + 10)
    }

    @Test("service data and a name-only match (the company id that changed last)")
    func sources() throws {
        let quantity = Quantity("level", name: "Level")
        let service = UserFormat(
            name: "s", source: .service(BLEUUID(uuid16: 0xFE00)), fields: [.init(quantity: quantity, offset: 1, type: .uint8)])
        let advert = Advert(serviceData: [BLEUUID(uuid16: 0xFE00): [0x00, 0x2A]])
        #expect(PassiveDecoder.decode(advert, formats: [], user: [service]).first?.decoded.reading?.number("level") == 42)
        let named = UserFormat(
            name: "n", source: .latestManufacturer, localName: try Glob("ACME*"), fields: [.init(quantity: quantity, offset: 0, type: .uint8)])
        let latest = Advert(manufacturerData: [0x0102: [7], 0x0304: [9]], name: "ACME-1", latestManufacturer: 0x0304)
        #expect(PassiveDecoder.decode(latest, formats: [], user: [named]).first?.decoded.reading?.number("level") == 9)
        var other = latest
        other.name = "Other"
        #expect(PassiveDecoder.decode(other, formats: [], user: [named]).isEmpty)
    }
}
