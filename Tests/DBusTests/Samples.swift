import DBus

/// Values of every kind the codec carries, each with its signature written out by hand.
enum Samples {
    static let basics: [(DBusValue, String)] = [
        (.byte(0), "y"), (.byte(255), "y"), (.bool(true), "b"), (.bool(false), "b"),
        (.int16(.min), "n"), (.uint16(.max), "q"), (.int32(-42), "i"), (.uint32(.max), "u"),
        (.int64(.min), "x"), (.uint64(.max), "t"), (.double(-1.5), "d"), (.double(1e300), "d"),
        (.string(""), "s"), (.string("héllo ✓ 'quoted'"), "s"), (.string("\u{FFFE}\u{10FFFF}"), "s"), (.objectPath("/"), "o"),
        (.objectPath("/org/bluez/hci0/dev_AA_BB"), "o"), (.signature("a{sv}"), "g"), (.signature(""), "g"),
    ]

    static let containers: [(DBusValue, String)] = [
        (.bytes([]), "ay"),
        (.bytes([0, 1, 127, 128, 255]), "ay"),
        (.strings(["a", "b", ""]), "as"),
        (.objectPaths(["/a", "/a/b"]), "ao"),
        (.array("i", []), "ai"),
        (.array("q", [.uint16(1), .uint16(2), .uint16(3)]), "aq"),
        (.array("x", [.int64(-1), .int64(2)]), "ax"),
        (.array("(yx)", [.structure([.byte(9), .int64(3)]), .structure([.byte(8), .int64(4)])]), "a(yx)"),
        (.array("ai", [.array("i", [.int32(1), .int32(2)]), .array("i", [])]), "aai"),
        (.array("ay", [.bytes([1]), .bytes([])]), "aay"),
        (.vardict(["RSSI": .int16(-40), "Name": .string("Nova"), "Paired": .bool(false)]), "a{sv}"),
        (.dictionary(key: "s", value: "v", []), "a{sv}"),
        (.dictionary(key: "q", value: "v", [DBusDictEntry(key: .uint16(0x004c), value: .variant(.bytes([2, 21])))]), "a{qv}"),
        (.dictionary(key: "y", value: "ay", [DBusDictEntry(key: .byte(1), value: .bytes([9]))]), "a{yay}"),
        (.structure([.string("x"), .int32(1), .bytes([3])]), "(siay)"),
        (.structure([.structure([.bool(true)]), .double(0.5)]), "((b)d)"),
        (.array("(ays)", [.structure([.bytes([1, 2]), .string("request")])]), "a(ays)"),
        (.variant(.int32(5)), "v"),
        (.variant(.variant(.string("deep"))), "v"),
        (.variant(.vardict(["k": .strings(["v"])])), "v"),
        (managedObjects, "a{oa{sa{sv}}}"),
    ]

    static let all = basics + containers

    /// The shape of `GetManagedObjects`: object path → interface → properties.
    static let managedObjects: DBusValue = .dictionary(
        key: "o", value: "a{sa{sv}}",
        [
            DBusDictEntry(
                key: .objectPath("/org/bluez/hci0"),
                value: .dictionary(
                    key: "s", value: "a{sv}",
                    [
                        DBusDictEntry(
                            key: .string("org.bluez.Adapter1"),
                            value: .vardict(["Address": .string("00:11:22:33:44:55"), "Powered": .bool(true)])),
                        DBusDictEntry(key: .string("org.freedesktop.DBus.Introspectable"), value: .vardict([:])),
                    ])),
            DBusDictEntry(
                key: .objectPath("/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01"),
                value: .dictionary(
                    key: "s", value: "a{sv}",
                    [
                        DBusDictEntry(
                            key: .string("org.bluez.Device1"),
                            value: .vardict([
                                "RSSI": .int16(-48), "UUIDs": .strings(["0000180f-0000-1000-8000-00805f9b34fb"]),
                                "ManufacturerData": .dictionary(
                                    key: "q", value: "v", [DBusDictEntry(key: .uint16(0x004c), value: .variant(.bytes([2, 21])))]),
                            ]))
                    ])),
        ])
}
