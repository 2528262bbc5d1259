import BLEModels
import Testing

@Suite("Signal strength")
struct SignalTests {
    @Test(
        "the Nova SDK's formula",
        arguments: [
            (-50, 0.8 as Double?), (-40, 1.0), (-30, 1.0), (0, 1.0), (-45, 0.9), (-85, 0.1), (-90, 0.0), (-100, 0.0),
            (-127, 0.0), (-65, 0.5), (127, nil), (126, 1.0),
        ])
    func formula(rssi: Int, signal: Double?) {
        let strength = Signal.strength(rssi: rssi)
        #expect(strength.map { abs($0 - signal!) < 1e-9 } ?? (signal == nil), "\(rssi) dBm")
    }

    @Test("non-finite averages are no signal", arguments: [Double.nan, -.infinity, .infinity])
    func nonFinite(rssi: Double) {
        #expect(Signal.strength(rssi: rssi) == 0)
    }

    /// Readings (RSSI, seconds), the time asked and the expected mean RSSI.
    static let windows: [([(Int, Double)], Double, Double?)] = [
        ([], 0, nil),
        ([(-50, 0)], 0, -50),
        ([(-50, 0), (-60, 1), (-70, 2)], 2, -60),
        ([(-40, 0), (-60, 5), (-80, 9)], 12, -70),
        ([(-40, 0), (-60, 5), (-80, 9)], 40, -80),
        ([(-50, 0), (127, 1), (-70, 2)], 2, -60),
        ([(127, 0)], 0, nil),
        ([(-90, 0), (-50, 30)], 30, -50),
    ]

    @Test("readings are averaged over the window; a silent device keeps its last one", arguments: windows)
    func averaging(readings: [(Int, Double)], now: Double, rssi: Double?) {
        var window = SignalWindow(window: 10)
        for (value, time) in readings { window.add(rssi: value, at: time) }
        #expect(window.rssi(at: now) == rssi)
        #expect(window.signal(at: now) == rssi.map { Signal.strength(rssi: $0) })
    }

    @Test("memory is bounded however fast readings arrive", arguments: [1, 4, 32])
    func bounded(capacity: Int) {
        var window = SignalWindow(window: 10, capacity: capacity)
        for index in 0..<10_000 { window.add(rssi: -50, at: Double(index) / 10_000) }
        window.add(rssi: -90, at: 1)
        let expected = (-50.0 * Double(capacity - 1) - 90) / Double(capacity)
        #expect(window.rssi(at: 1) == expected, "only the newest \(capacity) readings count")
        #expect(window.lastSeen == 1)
    }

    @Test("absurd readings cannot overflow the average")
    func absurd() {
        var window = SignalWindow()
        window.add(rssi: .max, at: 0)
        window.add(rssi: .max, at: 0)
        window.add(rssi: .min, at: 0)
        #expect(window.signal(at: 0) != nil)
    }
}
