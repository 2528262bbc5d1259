import DBus
import TestSupport
import Testing

/// Received values are never trusted: a value of another type than expected is a nil or a typed mismatch.
@Suite struct MismatchTests {
    @Test(
        "typed reads report the expected and the actual signature",
        arguments: [
            (DBusValue.variant(.string("strong")), DBusSignature("n"), DBusSignature("s")),
            (.int32(1), "n", "i"),
            (.array("v", [.variant(.int32(1)), .variant(.string("x"))]), "ai", "av"),
            (.array("a{qv}", [.dictionary(key: "q", value: "v", [])]), "a{qv}", "aa{qv}"),
            (.dictionary(key: "s", value: "v", [DBusDictEntry(key: .string("k"), value: .variant(.bool(true)))]), "a{ss}", "a{sv}"),
            (.objectPath("/a"), "s", "o"),
        ])
    func mismatch(value: DBusValue, expected: DBusSignature, actual: DBusSignature) {
        let error = #expect(throws: DBusTypeMismatch.self) { try Self.read(value, as: expected) }
        #expect(error?.expected == expected)
        #expect(error?.actual == actual)
    }

    private static func read(_ value: DBusValue, as signature: DBusSignature) throws(DBusTypeMismatch) {
        switch signature.rawValue {
        case "n": _ = try value.get(Int16.self, context: "RSSI")
        case "s": _ = try value.get(String.self, context: "Name")
        case "ai": _ = try value.get([Int32].self, context: "list")
        case "a{qv}": _ = try value.get([UInt16: DBusValue].self, context: "ManufacturerData")
        case "a{ss}": _ = try value.get([String: String].self, context: "map")
        default: Issue.record("no reader for \(signature)")
        }
    }

    @Test("accessors return nil for other types instead of converting")
    func accessorsDoNotConvert() {
        #expect(DBusValue.int16(1).int32 == nil)
        #expect(DBusValue.uint32(1).int32 == nil)
        #expect(DBusValue.objectPath("/a").string == nil)
        #expect(DBusValue.string("/a").objectPath == nil)
        #expect(DBusValue.strings(["a"]).bytes == nil)
        #expect(DBusValue.dictionary(key: "q", value: "v", []).dictionary?.isEmpty == true)
        #expect(DBusValue.dictionary(key: "q", value: "v", [DBusDictEntry(key: .uint16(1), value: .variant(.int32(1)))]).dictionary == nil)
        #expect(DBusValue.string("x")["key"] == nil)
        #expect(DBusValue.variant(.variant(.int32(7))).int32 == 7)
        #expect(DBusValue.array("y", [.byte(1), .byte(2)]).bytes == [1, 2])
        #expect(DBusValue.vardict(["k": .int32(1)])["missing"] == nil)
    }

    @Test("mistyped data from a real service is reported, and the rest of the reply still reads", .tags(.bus), .needs(.busMock))
    func mistypedService() async throws {
        try await Bus.with { bus in
            let mock = try await bus.mock()
            // python-dbusmock's BlueZ template stores advertisement data as aa{qv} instead of a{qv}, and a
            // property can hold any type; this method answers like that.
            try await bus.addMethod(
                mock, "GetAll", in: "", out: "a{sv}",
                code: """
                    ret = {'RSSI': dbus.String('strong', variant_level=1), 'TxPower': dbus.Int16(4, variant_level=1), \
                    'ManufacturerData': dbus.Array([dbus.Dictionary({dbus.UInt16(76): dbus.ByteArray(b'\\x02\\x15')}, \
                    signature='qv')], signature='a{qv}', variant_level=1)}
                    """)
            let properties = try #require(try await bus.callMock(mock, "GetAll").first)
            #expect(properties["RSSI"]?.int16 == nil)
            let rssi = #expect(throws: DBusTypeMismatch.self) { try properties["RSSI"]?.get(Int16.self, context: "RSSI") }
            #expect(rssi?.actual == "s")
            #expect(properties["ManufacturerData"]?.dictionary == nil)
            let data = #expect(throws: DBusTypeMismatch.self) {
                try properties["ManufacturerData"]?.get([UInt16: DBusValue].self, context: "ManufacturerData")
            }
            #expect(data?.actual == "aa{qv}")
            #expect(try properties["TxPower"]?.get(Int16.self) == 4)
        }
    }
}
