import BLEModels
@testable import BlueZ
import DBus
import Harness
import Synchronization
import Testing
import TestSupport

@Suite("A device's PropertiesChanged read straight off a real bus", .timeLimit(.minutes(1)), .needs(.bus))
struct DeviceChangeReadingTests {
    static let rule = DBusMatchRule(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
    static let path = "/org/bluez/hci0/dev_A4_C1_38_00_00_01"
    static let uuid = "0000181a-0000-1000-8000-00805f9b34fb"
    /// The same UUID as the service data key.
    static let key = BLEUUID(uuid16: 0x181A)

    /// The mailbox, counting the signals it took, and those it read off the bus itself.
    final class Probe: DBusSignalSink {
        let mailbox = SignalMailbox()
        let received = Mutex(0)
        let readDirectly = Mutex(0)

        func receive(_ signal: DBusSignal) {
            mailbox.receive(signal)
            received.withLock { $0 += 1 }
        }

        func receive(_ header: DBusSignalHeader, body: inout DBusBodyReader) -> Bool {
            let taken = mailbox.receive(header, body: &body)
            if taken {
                readDirectly.withLock { $0 += 1 }
                received.withLock { $0 += 1 }
            }
            return taken
        }

        func finish() { mailbox.finish() }
    }

    /// Emits one `PropertiesChanged` and returns what the mailbox made of it, whether it read it off the bus
    /// itself, and the same signal read into values.
    private func receive(_ interface: String, _ properties: DBusValue, invalidated: [String]) async throws
        -> (items: [SignalMailbox.Item], direct: Bool, signal: DBusSignal)
    {
        let daemon = try await DBusDaemon.start()
        let receiver = try await DBusConnection.connect(to: DBusAddress(daemon.address))
        let sender = try await DBusConnection.connect(to: DBusAddress(daemon.address))
        let probe = Probe()
        let end = try await receiver.subscribe(Self.rule, into: probe)
        let signals = try await receiver.subscribe(Self.rule)
        try sender.emit(
            path: Self.path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
            arguments: [.string(interface), properties, .strings(invalidated)], signature: "sa{sv}as")
        var iterator = signals.makeAsyncIterator()
        let signal = try #require(await iterator.next())
        // The stream's copy may reach this task before the loop thread has handed the probe its own.
        try await waitUntil("the mailbox took the signal", timeout: .seconds(10)) { probe.received.withLock { $0 } >= 1 }
        let items = probe.mailbox.drain().items.first?.items ?? []
        end()
        await sender.close()
        await receiver.close()
        return (items, probe.readDirectly.withLock { $0 } == 1, signal)
    }

    @Test("typed advert properties, other properties as they came, mistyped values named but empty")
    func device() async throws {
        let properties = DBusValue.vardict([
            "RSSI": .int16(-40),
            "ServiceData": .dictionary(
                key: "s", value: "v",
                [
                    DBusDictEntry(key: .string(Self.uuid), value: .variant(.bytes([1, 2, 3]))),
                    DBusDictEntry(key: .string("0000FCD2-0000-1000-8000-00805F9B34FB"), value: .variant(.bytes([4]))),
                    DBusDictEntry(key: .string("fe95"), value: .variant(.bytes([5]))),
                    DBusDictEntry(key: .string("not a uuid"), value: .variant(.bytes([6]))),
                ]),
            "ManufacturerData": .dictionary(
                key: "q", value: "v",
                [
                    DBusDictEntry(key: .uint16(0x004c), value: .variant(.bytes([2, 21]))),
                    DBusDictEntry(key: .uint16(0x0001), value: .variant(.string("not bytes"))),
                ]),
            "Name": .string("ATC_000001"),
            "TxPower": .string("mistyped"),
            "UUIDs": .strings([Self.uuid]),
        ])
        let (items, direct, signal) = try await receive(BlueZInterface.device, properties, invalidated: ["Alias"])
        #expect(direct, "read off the bus without values")
        guard items.count == 1, case .device(let change) = items[0] else {
            Issue.record("expected one device change, got \(items)")
            return
        }
        let generic = DeviceChange(try #require(signal.body[1].dictionary), invalidated: ["Alias"])
        #expect(change == generic, "the same change as from the values")
        let services = [Self.key: [1, 2, 3], BLEUUID(uuid16: 0xFCD2): [4], BLEUUID(uuid16: 0xFE95): [5]] as ServiceData
        #expect(change.rssi == -40 && change.serviceData == services && change.manufacturerData == [0x004c: [2, 21]])
        #expect(change.named == [.rssi, .serviceData, .manufacturerData])
        #expect(change.other == ["Name": .string("ATC_000001"), "TxPower": .string("mistyped"), "UUIDs": .strings([Self.uuid])])
        #expect(change.invalidated == ["Alias"])
        var device = BlueZDevice(path: Self.path)
        let named = device.update(change)
        #expect(named.isSuperset(of: [.rssi, .serviceData, .manufacturerData, .name, .txPower, .uuids, .alias]))
        #expect(device.rssi == -40 && device.name == "ATC_000001" && device.txPower == nil && device.latestManufacturer == 0x004c)
    }

    @Test("another interface's change is left to the generic reading")
    func otherInterface() async throws {
        let (items, direct, _) = try await receive(BlueZInterface.adapter, .vardict(["Powered": .bool(false)]), invalidated: [])
        #expect(!direct)
        guard items.count == 1, case .properties(let interface, let changed, _) = items[0] else {
            Issue.record("expected the generic item, got \(items)")
            return
        }
        #expect(interface == BlueZInterface.adapter && changed["Powered"]?.bool == false)
    }
}
