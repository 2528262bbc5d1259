import BLEFormats
import Testing

/// One advert of a batch: its values and RSSI.
struct BatchAdvert: Sendable {
    var values: [Measurement]
    var rssi: Int?
}

/// A batch of adverts for one device, and what waits for its end.
struct PendingCase: Sendable, CustomTestStringConvertible {
    var name: String
    var adverts: [BatchAdvert]
    var values: [Measurement]
    var rssi: Int?
    var testDescription: String { name }
}

@Suite("Pending readings: the newest value of each key and the newest RSSI wait to be weighed")
struct PendingReadingsTests {
    static let cases: [PendingCase] = [
        PendingCase(name: "nothing added", adverts: [], values: [], rssi: nil),
        PendingCase(
            name: "one advert is kept as it came",
            adverts: [BatchAdvert(values: [Measurement(.temperature, 21), Measurement(.humidity, 40)], rssi: -60)],
            values: [Measurement(.temperature, 21), Measurement(.humidity, 40)], rssi: -60),
        PendingCase(
            name: "a later value of a key replaces it in its first position",
            adverts: [
                BatchAdvert(values: [Measurement(.temperature, 21), Measurement(.humidity, 40)], rssi: -60),
                BatchAdvert(values: [Measurement(.humidity, 41), Measurement(.temperature, 22)], rssi: -61),
            ],
            values: [Measurement(.temperature, 22), Measurement(.humidity, 41)], rssi: -61),
        PendingCase(
            name: "new keys come after the ones held",
            adverts: [
                BatchAdvert(values: [Measurement(.temperature, 21)], rssi: nil),
                BatchAdvert(values: [Measurement(.battery, 90)], rssi: nil),
            ],
            values: [Measurement(.temperature, 21), Measurement(.battery, 90)], rssi: nil),
        PendingCase(
            name: "an advert without RSSI keeps the newest one carried",
            adverts: [
                BatchAdvert(values: [], rssi: -70),
                BatchAdvert(values: [Measurement(.temperature, 20)], rssi: nil),
            ],
            values: [Measurement(.temperature, 20)], rssi: -70),
        PendingCase(
            name: "RSSI alone",
            adverts: [BatchAdvert(values: [], rssi: -70), BatchAdvert(values: [], rssi: -72)],
            values: [], rssi: -72),
    ]

    @Test("adding adverts", arguments: cases)
    func adding(_ test: PendingCase) {
        var pending = PendingReadings()
        for advert in test.adverts { pending.add(advert.values, rssi: advert.rssi) }
        #expect(pending.values == test.values)
        #expect(pending.rssi == test.rssi)
    }

    @Test("a batch that ends where the last publish was publishes nothing: the moves in between are stale")
    func weighedOnce() {
        var throttle = StateThrottle()
        #expect(throttle.offer([Measurement(.temperature, 25)], now: 0) == .first)
        var pending = PendingReadings()
        for temperature in [25.3, 25.6, 25.0] { pending.add([Measurement(.temperature, temperature)], rssi: nil) }
        #expect(pending.values == [Measurement(.temperature, 25)])
        #expect(throttle.offer(pending.values, rssi: pending.rssi, now: 1) == nil)
        pending.add([Measurement(.temperature, 25.6)], rssi: nil)
        #expect(throttle.offer(pending.values, rssi: pending.rssi, now: 2) == .changed(["temperature"]))
    }
}
