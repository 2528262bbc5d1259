import BLEFormats
import BLEModels
import TestSupport
import Testing
import Support

@Suite("Passive adverts: which enabled format makes what of an advert")
struct PassiveDecoderTests {
    static let thermometer = try! BluetoothAddress("A4:C1:38:12:34:56")
    static let pvvx = hex("56 34 12 38 C1 A4 29 09 D7 11 86 0B 55 12 05")
    static let atc = hex("A4 C1 38 12 34 56 00 EA 2D 55 0B 86 12")
    static let iBeacon = hex("02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02 C5")
    static let all = PassiveFormats(PassiveFormat.allCases)

    @Test("BlueZ's service data keys are parsed; keys that are not UUIDs are dropped")
    func advertKeys() {
        let advert = Advert(serviceData: ["0000fcd2-0000-1000-8000-00805f9b34fb": [0x40], "FEAA": [0x20], "not a uuid": [1]])
        #expect(advert.serviceData == [BTHome.service: [0x40], Eddystone.service: [0x20]])
        #expect(PassiveFormat.defaults == [.bthome, .atc, .pvvx, .xiaomi, .switchbot, .govee, .oralb, .thermopro, .inkbird, .ruuvi])
        #expect(PassiveFormat(rawValue: "ibeacon") == .ibeacon && PassiveFormat(rawValue: "iBeacon") == nil)
    }

    @Test("each format is decoded only when enabled")
    func enabled() {
        let advert = Advert(
            sender: Self.thermometer, rssi: -59, manufacturerData: [IBeacon.company: Self.iBeacon],
            serviceData: [
                BTHome.service: hex("40 02 C4 09"), XiaomiCustom.service: Self.pvvx,
                Eddystone.service: hex("30 F0 01 02 03 04 05 06 07 08"),
            ])
        #expect(PassiveDecoder.decode(advert, formats: Self.all).map(\.format) == [.bthome, .pvvx, .ibeacon, .eddystone])
        #expect(PassiveDecoder.decode(advert, formats: PassiveFormats(PassiveFormat.defaults)).map(\.format) == [.bthome, .pvvx])
        #expect(PassiveDecoder.decode(advert, formats: [.atc]).isEmpty, "a pvvx payload is not atc")
        #expect(PassiveDecoder.decode(advert, formats: []).isEmpty)
        let beacon = PassiveDecoder.decode(advert, formats: [.ibeacon])
        #expect(beacon.first?.decoded.reading?.number("estimated_distance") == 1.0)
    }

    @Test("181A service data goes to atc or pvvx by length; an odd length is undecodable for the nearer one")
    func environmentalSensing() {
        let atcAdvert = Advert(sender: Self.thermometer, serviceData: [XiaomiCustom.service: Self.atc])
        let atc = PassiveDecoder.decode(atcAdvert, formats: Self.all)
        #expect(atc.map(\.format) == [.atc] && atc.first?.isRecognised == true)
        let odd = PassiveDecoder.decode(Advert(serviceData: [XiaomiCustom.service: [1, 2, 3]]), formats: Self.all)
        #expect(odd == [PassiveResult(.atc, .undecodable(.wrongLength(3, expected: [13])))])
        #expect(odd.first?.isRecognised == false)
        let long = PassiveDecoder.decode(Advert(serviceData: [XiaomiCustom.service: Self.pvvx + [0]]), formats: Self.all)
        #expect(long.first?.format == .pvvx && long.first?.isRecognised == false)
        let stranger = try! BluetoothAddress("11:22:33:44:55:66")
        let foreignAdvert = Advert(sender: stranger, serviceData: [XiaomiCustom.service: Self.pvvx])
        let foreign = PassiveDecoder.decode(foreignAdvert, formats: Self.all)
        #expect(foreign.first?.decoded == .undecodable(.addressMismatch(Self.thermometer)))
    }

    @Test("an Apple continuity advert is no iBeacon: no result, so the phone does not appear")
    func continuity() {
        let phone = Advert(rssi: -50, manufacturerData: [IBeacon.company: hex("10 05 01 18 44 C3 0A")])
        #expect(PassiveDecoder.decode(phone, formats: Self.all).isEmpty)
        let otherCompany = Advert(manufacturerData: [0x0059: Self.iBeacon])
        #expect(PassiveDecoder.decode(otherCompany, formats: Self.all).isEmpty)
    }

    @Test("encrypted BTHome is recognised, so the device appears, but carries no values")
    func encrypted() {
        let advert = Advert(serviceData: [BTHome.service: hex("41 A4 72 66 C2 88 A1 EC 1D 02 B2 03 00 4D 4C 59 6E")])
        let result = PassiveDecoder.decode(advert, formats: Self.all)
        #expect(result == [PassiveResult(.bthome, .encrypted)] && result.first?.isRecognised == true)
    }
}
