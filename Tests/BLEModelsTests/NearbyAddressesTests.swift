import BLEModels
import Support
import Testing

@Suite("Nearby addresses: bounded, expiring, strongest first")
struct NearbyAddressesTests {
    static func address(_ index: Int) -> BluetoothAddress { BluetoothAddress(value: 0x5A00_0000_0000 + UInt64(index)) }

    @Test("the strongest come first, the unmeasured last; a name or signal an advert lacks is kept")
    func order() {
        var table = NearbyAddresses()
        table.record(Self.address(1), name: "Phone", rssi: -80, now: 0)
        table.record(Self.address(2), name: nil, rssi: -50, now: 1)
        table.record(Self.address(3), name: "Tag", rssi: nil, now: 2)
        table.record(Self.address(1), name: nil, rssi: nil, now: 3)
        let list = table.strongest(10, now: 3)
        #expect(list.map(\.address) == [Self.address(2), Self.address(1), Self.address(3)])
        #expect(list[1].name == "Phone" && list[1].rssi == -80 && list[1].lastSeen == 3)
        #expect(table.strongest(1, now: 3).map(\.address) == [Self.address(2)])
    }

    @Test("an address silent past the expiry is not listed; removed ones are gone")
    func expiry() {
        var table = NearbyAddresses(expiry: 10)
        table.record(Self.address(1), name: nil, rssi: -60, now: 0)
        table.record(Self.address(2), name: nil, rssi: -70, now: 5)
        #expect(table.strongest(10, now: 12).map(\.address) == [Self.address(2)])
        table.remove(Self.address(2))
        #expect(table.strongest(10, now: 12).isEmpty)
    }

    @Test("a flood of addresses holds at most the capacity, and the newest stay")
    func flood() {
        var table = NearbyAddresses(capacity: 64, expiry: 1000)
        for index in 0..<10_000 { table.record(Self.address(index), name: nil, rssi: -60, now: Double(index)) }
        let list = table.strongest(1000, now: 10_000)
        #expect(list.count <= 64 && list.count >= 48)
        #expect(list.contains { $0.address == Self.address(9_999) })
        #expect(!list.contains { $0.address == Self.address(0) })
    }
}
