import BLEModels
@testable import BlueZ
import DBus
import Testing

@Suite("The mailbox between the D-Bus thread and the driver: merged per path, in order, bounded")
struct SignalMailboxTests {
    static func changed(_ path: String, _ properties: [String: DBusValue], invalidated: [String] = []) -> DBusSignal {
        let entries = properties.sorted { $0.key < $1.key }.map { DBusDictEntry(key: .string($0.key), value: .variant($0.value)) }
        return DBusSignal(
            sender: ":1.1", path: path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
            body: [.string("org.bluez.Device1"), .dictionary(key: "s", value: "v", entries), .array("s", invalidated.map(DBusValue.string))])
    }

    static let uuid = "0000181a-0000-1000-8000-00805f9b34fb"
    /// The same UUID as the service data key.
    static let key = BLEUUID(uuid16: 0x181A)

    /// `ServiceData` as BlueZ sends it: UUID to a variant holding the bytes.
    static func serviceData(_ bytes: [UInt8], under key: String = uuid) -> DBusValue {
        .dictionary(key: "s", value: "v", [DBusDictEntry(key: .string(key), value: .variant(.bytes(bytes)))])
    }

    static func added(_ path: String) -> DBusSignal {
        DBusSignal(
            sender: ":1.1", path: "/", interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesAdded",
            body: [.objectPath(path), .dictionary(key: "s", value: "a{sv}", [])])
    }

    @Test("a burst of adverts leaves one entry per device, each property at its newest value")
    func merges() {
        let mailbox = SignalMailbox()
        for rssi in -80 ... -40 { mailbox.receive(Self.changed("/dev_a", ["RSSI": .int16(Int16(rssi))])) }
        mailbox.receive(Self.changed("/dev_b", ["RSSI": .int16(-70)]))
        mailbox.receive(Self.changed("/dev_a", ["ServiceData": Self.serviceData([1])], invalidated: ["RSSI"]))
        let (batch, dropped) = mailbox.drain()
        #expect(dropped == 0)
        #expect(batch.map(\.path) == ["/dev_a", "/dev_b"], "in the order each path first came")
        guard case .device(let change)? = batch.first?.items.first, batch.first?.items.count == 1 else {
            Issue.record("\(batch)")
            return
        }
        #expect(change.named == [.serviceData] && change.serviceData == [Self.key: [1]])
        #expect(change.rssi == nil && change.invalidated == ["RSSI"], "the invalidation wins over the values before it")
        let again = mailbox.drain()
        #expect(again.items.isEmpty, "empty once drained")
    }

    @Test("advert payloads are kept one by one, folded into one change, and when a device's entries are full the oldest gives way")
    func advertsKept() {
        let mailbox = SignalMailbox()
        for packet in 0..<(SignalMailbox.maxPerPath + 4) {
            mailbox.receive(Self.changed("/dev_s", ["ServiceData": Self.serviceData([UInt8(packet)]), "RSSI": .int16(Int16(-60 - packet % 20))]))
            mailbox.receive(Self.changed("/dev_s", ["RSSI": .int16(-50)]))
        }
        let (batch, dropped) = mailbox.drain()
        #expect(Self.payloads(batch.first?.items) == (4..<UInt8(SignalMailbox.maxPerPath + 4)).map { $0 }, "the newest \(SignalMailbox.maxPerPath), in order")
        #expect(dropped == 4)
        guard batch.first?.items.count == 1, case .device(let change)? = batch.first?.items.first else {
            Issue.record("one change for the device: \(batch.first?.items.count ?? 0)")
            return
        }
        #expect(change.rssi == -50, "the record's RSSI is the newest")
        #expect(change.earlier.allSatisfy { $0.rssi == -50 }, "each folded advert keeps the RSSI it was merged with before the next came")
    }

    @Test("a folded advert keeps the RSSI it came with, the change the newest values, and manufacturer data stays apart")
    func foldKeepsEachAdvert() {
        let mailbox = SignalMailbox()
        mailbox.receive(Self.changed("/dev_f", ["ServiceData": Self.serviceData([1]), "RSSI": .int16(-70)]))
        mailbox.receive(Self.changed("/dev_f", ["ServiceData": Self.serviceData([2]), "RSSI": .int16(-60)]))
        mailbox.receive(Self.changed("/dev_f", ["ServiceData": Self.serviceData([3])]))
        let company = DBusValue.dictionary(key: "q", value: "v", [DBusDictEntry(key: .uint16(0x0499), value: .variant(.bytes([9])))])
        mailbox.receive(Self.changed("/dev_f", ["ServiceData": Self.serviceData([4]), "ManufacturerData": company]))
        mailbox.receive(Self.changed("/dev_f", ["ServiceData": Self.serviceData([5])]))
        let (batch, dropped) = mailbox.drain()
        #expect(dropped == 0)
        let items = batch.first?.items ?? []
        #expect(Self.payloads(items) == [1, 2, 3, 4, 5], "every payload, in order")
        guard items.count == 3, case .device(let first) = items[0], case .device(let second) = items[1] else {
            Issue.record("\(items)")
            return
        }
        #expect(first.earlier == [EarlierAdvert(serviceData: [Self.key: [1]], rssi: -70), EarlierAdvert(serviceData: [Self.key: [2]], rssi: -60)])
        #expect(first.serviceData == [Self.key: [3]] && first.rssi == -60, "the newest payload, and the RSSI as it stood")
        #expect(second.named.contains(.manufacturerData) && second.earlier.isEmpty, "manufacturer data is not folded")
    }

    @Test("structural signals keep their place among a path's changes; past the bounds signals are dropped and counted")
    func orderAndBounds() {
        let mailbox = SignalMailbox()
        mailbox.receive(Self.changed("/dev_c", ["RSSI": .int16(-50)]))
        mailbox.receive(Self.added("/dev_c"))
        mailbox.receive(Self.changed("/dev_c", ["RSSI": .int16(-40)]))
        let first = mailbox.drain()
        let items = first.items.first?.items ?? []
        #expect(items.count == 3)
        for index in 0..<(SignalMailbox.maxPaths + 10) { mailbox.receive(Self.changed("/dev_\(index)", ["RSSI": .int16(-60)])) }
        for _ in 0..<(SignalMailbox.maxPerPath + 5) { mailbox.receive(Self.added("/dev_0")) }
        let (batch, dropped) = mailbox.drain()
        #expect(batch.count == SignalMailbox.maxPaths)
        #expect(dropped == 10 + SignalMailbox.maxPerPath + 5 - (SignalMailbox.maxPerPath - 1))
    }

    @Test("past the bound on all entries a growing device's oldest payload gives way, and a new device is dropped")
    func entriesBounded() {
        let mailbox = SignalMailbox()
        let paths = SignalMailbox.maxEntries / SignalMailbox.maxPerPath
        for packet in 0..<SignalMailbox.maxPerPath {
            for index in 0..<paths { mailbox.receive(Self.changed("/dev_\(index)", ["ServiceData": Self.serviceData([UInt8(packet & 0xFF)])])) }
        }
        mailbox.receive(Self.changed("/dev_0", ["ServiceData": Self.serviceData([0xEE])]))
        mailbox.receive(Self.changed("/dev_new", ["RSSI": .int16(-60)]))
        let (batch, dropped) = mailbox.drain()
        #expect(dropped == 2, "one payload gave way, one new device was dropped")
        #expect(batch.count == paths && batch.allSatisfy { Self.payloads($0.items).count == SignalMailbox.maxPerPath })
        let first = Self.payloads(batch.first { $0.path == "/dev_0" }?.items)
        #expect(first.first == 1 && first.last == 0xEE, "the oldest gave way; the newest is kept")
    }

    static let bthome = "0000fcd2-0000-1000-8000-00805f9b34fb"

    /// The payloads waiting for a path, folded ones included, in order, by the first byte under `uuid`.
    static func payloads(_ items: [SignalMailbox.Item]?, _ uuid: BLEUUID = key) -> [UInt8] {
        (items ?? []).flatMap { item -> [UInt8] in
            guard case .device(let change) = item else { return [] }
            return (change.earlier.map(\.serviceData) + [change.serviceData ?? [:]]).compactMap { $0[uuid]?.first }
        }
    }

    @Test("a thermometer's newer state-only payload replaces the one waiting; event-carrying payloads stay one by one")
    func stateOnlySuperseded() {
        let mailbox = SignalMailbox(superseding: [Self.key])
        for packet in 0..<50 {
            mailbox.receive(Self.changed("/dev_t", ["ServiceData": Self.serviceData([UInt8(packet)]), "RSSI": .int16(Int16(-90 + packet))]))
            mailbox.receive(Self.changed("/dev_h", ["ServiceData": Self.serviceData([UInt8(packet)], under: Self.bthome)]))
        }
        let (batch, dropped) = mailbox.drain()
        #expect(dropped == 0)
        let thermometer = batch.first { $0.path == "/dev_t" }?.items
        #expect(Self.payloads(thermometer) == [49], "only the newest thermometer payload waits")
        guard case .device(let change)? = thermometer?.first else {
            Issue.record("\(batch)")
            return
        }
        #expect(change.rssi == -41, "its RSSI is the newest too")
        let bthome = BLEUUID(uuid16: 0xFCD2)
        #expect(Self.payloads(batch.first { $0.path == "/dev_h" }?.items, bthome) == (0..<50).map { UInt8($0) }, "BTHome: each as it came")
    }

    @Test("a payload supersedes only one under the same state-only UUIDs, with no manufacturer data beside it")
    func supersedesOnlyLikeForLike() {
        let thermo = DBusDictEntry(key: .string(Self.uuid), value: .variant(.bytes([1])))
        let other = DBusDictEntry(key: .string(Self.bthome), value: .variant(.bytes([2])))
        func change(_ entries: [DBusDictEntry], manufacturer: Bool = false) -> DeviceChange {
            var properties: [String: DBusValue] = ["ServiceData": .dictionary(key: "s", value: "v", entries)]
            if manufacturer {
                properties["ManufacturerData"] = .dictionary(
                    key: "q", value: "v", [DBusDictEntry(key: .uint16(0x0499), value: .variant(.bytes([3])))])
            }
            return DeviceChange(properties)
        }
        let only = change([thermo])
        let cases: [(DeviceChange, DeviceChange, Bool, String)] = [
            (only, only, true, "same state-only UUID"),
            (change([other]), change([other]), false, "a UUID not named state-only"),
            (change([thermo, other]), change([thermo, other]), false, "one of the UUIDs is not state-only"),
            (only, change([other]), false, "different UUIDs"),
            (only, change([thermo, other]), false, "the earlier carries more"),
            (change([thermo], manufacturer: true), only, false, "manufacturer data beside it"),
            (only, change([thermo], manufacturer: true), false, "manufacturer data in the earlier"),
            (only, DeviceChange(["RSSI": .int16(-50)]), false, "the earlier has no payload"),
        ]
        for (later, earlier, expected, why) in cases {
            #expect(later.supersedes(earlier, under: [Self.key]) == expected, "\(why)")
        }
        #expect(!only.supersedes(only, under: []), "nothing is state-only unless named")
    }
}
