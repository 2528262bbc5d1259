import BLEModels
@testable import BlueZ
import DBus
import Harness
import Synchronization
import Testing
import TestSupport

@Suite("A device's PropertiesChanged read from its wire form", .timeLimit(.minutes(1)), .needs(.bus))
struct DeviceChangeWireTests {
    static let path = "/org/bluez/hci0/dev_A4_C1_38_00_00_02"
    static let rule = DBusMatchRule(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")

    /// What the wire reader made of each signal, and the message as it was marshalled.
    final class Capture: DBusSignalSink {
        let seen = Mutex<[(change: DeviceChange?, message: [UInt8])]>([])

        func receive(_ signal: DBusSignal) {}

        func receive(_ header: DBusSignalHeader, body: inout DBusBodyReader) -> Bool {
            let change = body.marshalled { DeviceChange(wire: &$0) }
            let message = body.marshalled { $0.message } ?? []
            seen.withLock { $0.append((change, message)) }
            return false
        }

        func finish() {}
    }

    static func services(_ entries: [(String, DBusValue)]) -> DBusValue {
        .dictionary(key: "s", value: "v", entries.map { DBusDictEntry(key: .string($0.0), value: .variant($0.1)) })
    }

    /// Property sets, the invalidated names sent with them, and whether the wire reader takes them.
    static let cases: [(DBusValue, [String], Bool)] = [
        (.vardict(["RSSI": .int16(-61)]), [], true),
        (
            .vardict([
                "RSSI": .int16(-40), "TxPower": .int16(4),
                "ServiceData": services([
                    ("0000181a-0000-1000-8000-00805f9b34fb", .bytes([1, 2, 3])), ("fcd2", .bytes([])),
                    ("not a uuid", .bytes([6])),
                ]),
            ]), [], true
        ),
        (
            .vardict([
                "ManufacturerData": .dictionary(
                    key: "q", value: "v",
                    [
                        DBusDictEntry(key: .uint16(0x004c), value: .variant(.bytes([2, 21]))),
                        DBusDictEntry(key: .uint16(0x0499), value: .variant(.bytes(Array(0..<24)))),
                    ])
            ]), [], true
        ),
        (.vardict([:]), ["RSSI", "ServiceData"], true),
        (.vardict(["RSSI": .int16(-70)]), ["TxPower"], true),
        (.vardict(["Name": .string("ATC_000002")]), [], false),
        (.vardict(["RSSI": .string("mistyped")]), [], false),
        (.vardict(["ServiceData": services([("181a", .string("not bytes"))])]), [], false),
    ]

    /// Emits each case's `PropertiesChanged` of a device, and, last, one of an adapter.
    private func capture() async throws -> [(change: DeviceChange?, message: [UInt8])] {
        let daemon = try await DBusDaemon.start()
        let receiver = try await DBusConnection.connect(to: DBusAddress(daemon.address))
        let sender = try await DBusConnection.connect(to: DBusAddress(daemon.address))
        let probe = Capture()
        let end = try await receiver.subscribe(Self.rule, into: probe)
        let signals = try await receiver.subscribe(Self.rule)
        var iterator = signals.makeAsyncIterator()
        let sent = Self.cases.map { ($0.0, $0.1, BlueZInterface.device) } + [(.vardict(["Powered": .bool(true)]), [], BlueZInterface.adapter)]
        for (properties, invalidated, interface) in sent {
            try sender.emit(
                path: Self.path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                arguments: [.string(interface), properties, .strings(invalidated)], signature: "sa{sv}as")
            _ = try #require(await iterator.next())
        }
        end()
        await sender.close()
        await receiver.close()
        return probe.seen.withLock { $0 }
    }

    @Test("an advert's usual shape reads as it does from values; any other shape is left to libdbus's iterator")
    func sameAsValues() async throws {
        let seen = try await capture()
        try #require(seen.count == Self.cases.count + 1)
        for ((properties, invalidated, taken), (change, _)) in zip(Self.cases, seen) {
            let expected = DeviceChange(try #require(properties.dictionary), invalidated: invalidated)
            if taken {
                #expect(change == expected, "\(properties) \(invalidated)")
            } else {
                #expect(change == nil, "\(properties) is not an advert's usual shape")
            }
        }
        #expect(seen[1].change?.serviceData?.count == 2, "the key that is no UUID is skipped, the empty payload kept")
        #expect(seen.last?.change == nil, "an adapter's change is not a device's")
    }

    @Test("a cut or altered message never traps the reader, and a cut one is refused")
    func damaged() async throws {
        let seen = try await capture()
        let message = try #require(seen.dropFirst().first?.message)
        try #require(!message.isEmpty)
        for length in 0..<message.count {
            let cut = message[..<length].withUnsafeBytes { raw in
                DBusWireReader(message: raw).flatMap { reader in
                    var reader = reader
                    return DeviceChange(wire: &reader)
                }
            }
            #expect(cut == nil, "cut after \(length) bytes")
        }
        var read = 0
        for index in message.indices {
            var altered = message
            altered[index] ^= 0xFF
            let change = altered.withUnsafeBytes { raw in
                DBusWireReader(message: raw).flatMap { reader in
                    var reader = reader
                    return DeviceChange(wire: &reader)
                }
            }
            if change != nil { read += 1 }
        }
        // Flipping a payload byte leaves a valid shape; flipping a length or a name does not.
        #expect(read > 0 && read < message.count)
    }
}
