import BLEFormats
import Support
import Harness

/// What each advert format costs to decode, pure (no D-Bus, no MQTT): every decoder over one of its public test
/// adverts, the encrypted ones with their keys, so decryption is counted.
struct DecodeBench {
    /// A format and one decode of its advert.
    struct Case {
        let name: String
        let decode: () -> Decoded?
    }

    static func cases() throws -> [Case] {
        let xiaomiSender = try BluetoothAddress("A4:C1:38:02:83:F4")
        let xiaomiKey = try BindKey(hex: "e9ea895fac7cca6d30532432a516f3a8")
        let xiaomi = hex("58585b0550f4830238c1a495ef58763c26000097e2abb5")
        let xiaomiPlain = hex("5020aa01a3bf2e3b342d580d1004b40095020a10013b")
        let shelly = try BluetoothAddress("54:48:E6:8F:80:A5")
        let shellyKey = try BindKey(hex: "231d39c1d7cc1ab1aee224cd096db932")
        let bthomeSealed = hex("41a47266c95f730011223378237214")
        let bthome = hex("40 02 CA 09 03 BF 13")
        let pvvx = hex("56 34 12 38 C1 A4 29 09 D7 11 86 0B 55 12 05")
        let switchbotService = hex("5400e4069835")
        let switchbotMaker = hex("d7c17d5deb43de03069835")
        let govee = hex("00034db26400")
        let oralb = hex("04270d0332000601011404")
        let ruuvi = hex("0505a060a0c89afd34028cff006376726976dead7b3fefaf")
        let thermopro = hex("001d022c")
        let inkbird = hex("c71200c83d5606")
        let user = UserFormat(
            name: "acme", source: .manufacturer(0xFFF1), prefix: [0x01],
            fields: [
                .init(quantity: .temperature, offset: 1, type: .int16le, scale: 0.01), .init(quantity: .humidity, offset: 3, type: .uint8),
            ])
        let acme = hex("01 CA 09 37")
        return [
            Case(name: "BTHome v2, plain") { BTHome.decode(bthome) },
            Case(name: "BTHome v2, encrypted") { BTHome.decode(bthomeSealed, sender: shelly, key: shellyKey) },
            Case(name: "pvvx") { XiaomiCustom.decodePVVX(pvvx) },
            Case(name: "MiBeacon, plain") { MiBeacon.decode(xiaomiPlain) },
            Case(name: "MiBeacon v5, encrypted") { MiBeacon.decode(xiaomi, sender: xiaomiSender, key: xiaomiKey) },
            Case(name: "SwitchBot meter") { SwitchBot.decode(serviceData: switchbotService, manufacturerData: switchbotMaker) },
            Case(name: "Govee H5075") { Govee.decode(company: 0xEC88, govee, name: "GVH5075_DBF8") },
            Case(name: "Oral-B") { OralB.decode(oralb) },
            Case(name: "RuuviTag format 5") { Ruuvi.decode(ruuvi) },
            Case(name: "ThermoPro TP357") { ThermoPro.decode(company: 0xF1C2, thermopro, name: "TP357") },
            Case(name: "Inkbird IBS-TH") { Inkbird.decode(company: 0x07FC, inkbird, name: "sps") },
            Case(name: "format from YAML") { user.decode(acme) },
        ]
    }

    /// Nanoseconds per decode for each case: the best of `rounds` runs of `iterations` decodes.
    func run(iterations: Int, rounds: Int = 5) throws -> [(name: String, nanoseconds: Double)] {
        try Self.cases().map { item in
            var best = Double.infinity
            var readings = 0
            for _ in 0..<rounds {
                let start = ContinuousClock.now
                for _ in 0..<iterations where item.decode()?.reading != nil { readings += 1 }
                let elapsed = ContinuousClock.now - start
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                best = min(best, seconds * 1e9 / Double(iterations))
            }
            precondition(readings == iterations * rounds, "\(item.name) must decode its own advert")
            return (item.name, best)
        }
    }
}
