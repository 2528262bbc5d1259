import BLEModels
import BridgeCore
import TestSupport
import Testing
import Support

@Suite("Which devices appear")
struct AdmissionTests {
    static let rules = ConnectRules(rules: [
        ConnectRule(match: .init(deviceClass: "nova"), policy: .closest),
        ConnectRule(match: .init(service: "180d"), policy: .never),
    ])
    static let nova = device("AA:00:00:00:00:01", name: "Nova", services: ["fff0"])
    static let heart = device("AA:00:00:00:00:02", name: "HRM", services: ["180d"])
    static let phone = device("5A:11:22:33:44:55", name: "Phone")
    static let listed = device("5A:11:22:33:44:66")
    static let remembered = device("5A:11:22:33:44:77", remembered: true)

    @Test(
        "a device is published for a reason, else ignored",
        arguments: [
            (nova, false, DeviceAdmission.Reason.rule as DeviceAdmission.Reason?),
            (heart, false, .rule),
            (listed, false, .configured),
            (remembered, false, .remembered),
            (phone, false, nil),
            (phone, true, .permitted),
            (nova, true, .rule),
        ])
    func admission(device: KnownDevice, permitting: Bool, reason: DeviceAdmission.Reason?) {
        let configured: Set<DeviceID> = [Self.listed.address.deviceID, Self.nova.address.deviceID]
        let admitted = DeviceAdmission.reason(
            for: device, rules: Self.rules, configured: configured, permitting: permitting)
        #expect(admitted == reason)
    }

    @Test("the ignored table holds at most its capacity, dropping the least recently seen", arguments: [1, 3, 4096])
    func bound(capacity: Int) {
        var table = IgnoredAddresses(capacity: capacity, expiry: 300)
        for index in 0..<10_000 { table.record(BluetoothAddress(value: UInt64(index)), now: Double(index) / 100) }
        let count = table.count(now: 100)
        #expect(count == capacity)
        #expect(table.contains(BluetoothAddress(value: 9_999), now: 100))
        #expect(!table.contains(BluetoothAddress(value: UInt64(9_999 - capacity)), now: 100))
    }

    @Test("a refreshed address is not the one dropped")
    func refreshKeeps() {
        var table = IgnoredAddresses(capacity: 3, expiry: 300)
        let addresses = [0xA, 0xB, 0xC, 0xD].map { BluetoothAddress(value: $0) }
        for (index, time) in [(0, 0.0), (1, 1), (2, 2), (0, 3), (3, 4)] { table.record(addresses[index], now: time) }
        #expect(addresses.map { table.contains($0, now: 4) } == [true, false, true, true])
    }

    /// Sightings (address, time), then the time asked and the count expected.
    static let expiries: [([(UInt64, Double)], Double, Int)] = [
        ([(1, 0), (2, 200)], 299, 2),
        ([(1, 0), (2, 200)], 300, 2),
        ([(1, 0), (2, 200)], 301, 1),
        ([(1, 0), (2, 200)], 501, 0),
        ([(1, 0), (1, 250)], 400, 1),
        ([(1, 0), (1, 250)], 551, 0),
        ([(1, 100), (2, 50)], 120, 2),
        ([], 0, 0),
    ]

    @Test("addresses expire after the expiry since their last sighting", arguments: expiries)
    func expiry(sightings: [(UInt64, Double)], now: Double, count: Int) {
        var table = IgnoredAddresses(capacity: 16, expiry: 300)
        for (value, time) in sightings { table.record(BluetoothAddress(value: value), now: time) }
        let counted = table.count(now: now)
        #expect(counted == count)
    }

    @Test("a flood of random addresses with repeats stays bounded and counts right", arguments: [7, 0xF100D])
    func flood(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var table = IgnoredAddresses(capacity: 512, expiry: 60)
        for step in 0..<50_000 {
            // Every other sighting repeats one of 64 chatty neighbours, the rest are new random addresses.
            let value = step.isMultiple(of: 2) ? random.next() % 64 : random.next()
            table.record(BluetoothAddress(value: value), now: Double(step) / 1_000)
            let count = table.count(now: Double(step) / 1_000)
            #expect(count <= 512)
        }
        let full = table.count(now: 50)
        let later = table.count(now: 200)
        #expect(full == 512 && later == 0)
    }

    @Test("an address can be forgotten, one or all")
    func forget() {
        var table = IgnoredAddresses()
        table.record(BluetoothAddress(value: 1), now: 0)
        table.record(BluetoothAddress(value: 2), now: 0)
        table.remove(BluetoothAddress(value: 1))
        let afterRemove = table.count(now: 0)
        #expect(!table.contains(BluetoothAddress(value: 1), now: 0) && afterRemove == 1)
        table.record(BluetoothAddress(value: 1), now: 1)
        let afterRecord = table.count(now: 1)
        table.removeAll()
        let afterClear = table.count(now: 1)
        #expect(afterRecord == 2 && afterClear == 0)
    }
}
