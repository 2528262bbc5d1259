import BridgeCore
import Testing

@Suite("Gathering a device's state changes over a batch")
struct StateBatchTests {
    let a = DeviceID("ble_a4c138000001")!
    let b = DeviceID("ble_a4c138000002")!

    /// The bridge's own merge, applied change by change.
    func applied(_ changes: [[String: JSONValue]], to start: [String: JSONValue]) -> [String: JSONValue] {
        changes.reduce(start) { $0.merging(state: $1) }
    }

    @Test(
        "one gathered change leaves the bridge's state as the changes one by one would",
        arguments: [
            [["temperature": 20.5, "rssi": -60], ["temperature": 21.0], ["humidity": 40]],
            [["temperature": 20.5], ["temperature": .null], ["rssi": -70]],
            [["battery": .null], ["battery": 80]],
            [["last_seen": "2026-11-26T08:00:00Z"], ["last_seen": "2026-11-26T08:00:01Z", "signal": 0.5]],
        ] as [[[String: JSONValue]]])
    func sameResult(changes: [[String: JSONValue]]) {
        let start: [String: JSONValue] = ["temperature": 19, "battery": 90, "humidity": 35]
        var batch = StateBatch()
        for change in changes { #expect(batch.add(a, change).isEmpty) }
        let gathered = batch.takeAll()
        #expect(gathered.count == 1)
        #expect(gathered.first?.id == a)
        #expect(applied(gathered.map(\.state), to: start) == applied(changes, to: start))
        #expect(batch.isEmpty)
    }

    @Test("devices come out in the order each was first gathered, once each")
    func order() {
        var batch = StateBatch()
        _ = batch.add(b, ["rssi": -50])
        _ = batch.add(a, ["rssi": -60])
        _ = batch.add(b, ["rssi": -55])
        let out = batch.takeAll()
        #expect(out.map(\.id) == [b, a])
        #expect(out.first?.state == ["rssi": -55])
        #expect(batch.takeAll().isEmpty)
    }

    @Test("a nested change is handed back after what was gathered for its device, and the others stay")
    func nested() {
        var batch = StateBatch()
        _ = batch.add(a, ["rssi": -60])
        _ = batch.add(b, ["rssi": -70])
        let now = batch.add(a, ["gatt": ["2a19": 80]])
        #expect(now == [["rssi": -60], ["gatt": ["2a19": 80]]])
        #expect(batch.takeAll().map(\.id) == [b])
    }

    @Test("taking one device's change forgets it; gathering it again puts it last")
    func take() {
        var batch = StateBatch()
        _ = batch.add(a, ["rssi": -60])
        _ = batch.add(b, ["rssi": -70])
        #expect(batch.take(a) == ["rssi": -60])
        #expect(batch.take(a) == nil)
        _ = batch.add(a, ["rssi": -61])
        #expect(batch.takeAll().map(\.id) == [b, a])
    }
}
