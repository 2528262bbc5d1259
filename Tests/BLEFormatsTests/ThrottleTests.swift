import BLEFormats
import TestSupport
import Testing

/// A reference to a throttle, so `#expect` can call it: the macro cannot call a mutating method.
final class Throttle {
    var state: StateThrottle
    init(stateInterval: Double = 60, signalInterval: Double = 60) {
        state = StateThrottle(stateInterval: stateInterval, signalInterval: signalInterval)
    }
    func offer(_ measurements: [Measurement], rssi: Int? = nil, now: Double) -> StateThrottle.Reason? {
        state.offer(measurements, rssi: rssi, now: now)
    }
    func reset() { state.reset() }
}

@Suite("State throttle: publish on real change, at the state interval, and the signal alone rarely")
struct ThrottleTests {
    static func climate(_ temperature: Double, _ humidity: Double = 50) -> [Measurement] {
        [Measurement(.temperature, temperature), Measurement(.humidity, humidity)]
    }

    @Test("first values publish; repeats do not; small moves add up against the published value")
    func thresholds() {
        let throttle = Throttle(stateInterval: 60, signalInterval: 60)
        #expect(throttle.offer(Self.climate(25.0), now: 0) == .first)
        #expect(throttle.offer(Self.climate(25.0), now: 1) == nil)
        #expect(throttle.offer(Self.climate(25.05), now: 2) == nil)
        #expect(throttle.offer(Self.climate(25.09, 50.4), now: 3) == nil)
        #expect(throttle.offer(Self.climate(25.1, 50.4), now: 4) == .changed(["temperature"]))
        #expect(throttle.offer(Self.climate(25.0, 50.4), now: 5) == .changed(["temperature"]))
        #expect(throttle.offer(Self.climate(25.0, 49.5), now: 6) == .changed(["humidity"]))
        #expect(throttle.offer(Self.climate(25.2, 50.0), now: 7) == .changed(["temperature", "humidity"]))
    }

    @Test("unchanged values still publish every state interval, counted from the last publish")
    func interval() {
        let throttle = Throttle(stateInterval: 60, signalInterval: 600)
        _ = throttle.offer(Self.climate(20), now: 0)
        #expect(throttle.offer(Self.climate(20), now: 59.9) == nil)
        #expect(throttle.offer(Self.climate(20), now: 60) == .interval)
        #expect(throttle.offer(Self.climate(20.5), now: 70) == .changed(["temperature"]))
        #expect(throttle.offer(Self.climate(20.5), now: 129) == nil)
        #expect(throttle.offer(Self.climate(20.5), now: 130) == .interval)
        #expect(throttle.offer(Self.climate(20.5), now: 100) == nil, "a clock that went back publishes nothing early")
    }

    @Test("RSSI alone publishes at most once per signal interval; it rides along with real changes")
    func rssi() {
        let throttle = Throttle(stateInterval: 300, signalInterval: 60)
        _ = throttle.offer(Self.climate(20), rssi: -60, now: 0)
        #expect(throttle.offer(Self.climate(20), rssi: -70, now: 30) == nil)
        #expect(throttle.offer(Self.climate(20), rssi: -60, now: 61) == nil, "back to the published RSSI is no change")
        #expect(throttle.offer(Self.climate(20), rssi: -65, now: 62) == .signal)
        #expect(throttle.offer(Self.climate(20), rssi: -75, now: 100) == nil)
        #expect(throttle.offer(Self.climate(21), rssi: -75, now: 110) == .changed(["temperature"]))
        #expect(throttle.offer(Self.climate(21), rssi: -80, now: 160) == nil, "the change at 110 carried the signal")
        #expect(throttle.offer(Self.climate(21), rssi: -80, now: 171) == .signal)
        #expect(throttle.offer([], rssi: -81, now: 250) == .signal)
    }

    @Test("a distance estimated from RSSI is throttled like RSSI")
    func signalQuantity() {
        let throttle = Throttle(stateInterval: 300, signalInterval: 60)
        let beacon = { (distance: Double) in [Measurement(.major, 1), Measurement(.estimatedDistance, distance)] }
        _ = throttle.offer(beacon(1.0), now: 0)
        #expect(throttle.offer(beacon(3.2), now: 10) == nil)
        #expect(throttle.offer(beacon(3.2), now: 60) == .signal)
        #expect(throttle.offer(beacon(3.2), now: 120) == nil)
    }

    @Test("events always publish and are never remembered as state; quiet counters never publish alone")
    func eventsAndCounters() {
        let throttle = Throttle(stateInterval: 60, signalInterval: 60)
        let count = { (n: Double) in Measurement(.advertisementCount, n) }
        _ = throttle.offer([count(1)], now: 0)
        #expect(throttle.offer([count(2)], now: 1) == nil)
        #expect(throttle.offer([count(3), Measurement(.button, .event("press"))], now: 2) == .changed(["button"]))
        #expect(throttle.offer([count(3), Measurement(.button, .event("press"))], now: 3) == .changed(["button"]))
        #expect(throttle.offer([count(4)], now: 4) == nil)
        #expect(throttle.offer([count(100)], now: 63) == .interval)
    }

    @Test("text, binary, lists and new keys publish on any change; relative thresholds scale with the value")
    func kinds() {
        let throttle = Throttle()
        _ = throttle.offer([Measurement(.illuminance, 1000), Measurement(.door, .bool(false))], now: 0)
        #expect(throttle.offer([Measurement(.illuminance, 1040)], now: 1) == nil)
        #expect(throttle.offer([Measurement(.illuminance, 1050)], now: 2) == .changed(["illuminance"]))
        #expect(throttle.offer([Measurement(.illuminance, 1050.5)], now: 3) == nil)
        #expect(throttle.offer([Measurement(.door, .bool(true))], now: 4) == .changed(["door"]))
        #expect(throttle.offer([Measurement(.url, .text("https://a.b"))], now: 5) == .changed(["url"]))
        #expect(throttle.offer([Measurement(.url, .text("https://a.b"))], now: 6) == nil)
        #expect(throttle.offer([Measurement(.rrIntervals, .numbers([0.8]))], now: 7) == .changed(["rr_intervals"]))
        #expect(throttle.offer([Measurement(.rrIntervals, .numbers([0.8]))], now: 8) == nil)
        throttle.reset()
        #expect(throttle.offer([Measurement(.rrIntervals, .numbers([0.8]))], now: 9) == .first)
    }

    @Test("a 10 Hz advertiser with noisy RSSI and values that do not change publishes at most twice a minute")
    func chattyAdvertiser() {
        let throttle = Throttle(stateInterval: 60, signalInterval: 60)
        var random = SplitMix64(seed: 10)
        var publishes: [Double] = []
        for tick in 0..<6000 {
            let now = Double(tick) / 10
            let noise = Double(random.next() % 5) / 100
            let reading = [Measurement(.temperature, 21.5 + noise), Measurement(.humidity, 40 + noise), Measurement(.battery, 90)]
            if throttle.offer(reading, rssi: -60 - Int(random.next() % 10), now: now) != nil { publishes.append(now) }
        }
        #expect(publishes.count >= 10 && publishes.count <= 20, "\(publishes)")
        for minute in 0..<10 {
            #expect(publishes.filter { Int($0 / 60) == minute }.count <= 2, "minute \(minute): \(publishes)")
        }
    }
}
