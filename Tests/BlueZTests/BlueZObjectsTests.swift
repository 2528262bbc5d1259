import BLEModels
import BlueZ
import DBus
import Testing
import Support

@Suite("BlueZ object cache (pure)")
struct BlueZObjectsTests {
    static let adapter = "/org/bluez/hci0"
    static let nova = "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01"

    static func interfaces(_ interface: String, _ properties: [String: DBusValue]) -> DBusValue {
        .dictionary(key: "s", value: "a{sv}", [DBusDictEntry(key: .string(interface), value: .vardict(properties))])
    }

    static func managedObjects(_ objects: [(String, DBusValue)]) -> DBusValue {
        .dictionary(key: "o", value: "a{sa{sv}}", objects.map { DBusDictEntry(key: .objectPath($0.0), value: $0.1) })
    }

    static let novaProperties: [String: DBusValue] = [
        "Address": .string("AA:BB:CC:DD:EE:01"), "Name": .string("Nova"), "RSSI": .int16(-48),
        "UUIDs": .strings(["0000fff0-0000-1000-8000-00805f9b34fb"]), "Connected": .bool(false),
        "Adapter": .objectPath(adapter),
        "ManufacturerData": .dictionary(key: "q", value: "v", [DBusDictEntry(key: .uint16(0x004c), value: .variant(.bytes([2, 21])))]),
    ]

    @Test("GetManagedObjects builds typed adapters and devices")
    func load() throws {
        var objects = BlueZObjects()
        let changes = objects.load(Self.managedObjects([
            (Self.adapter, Self.interfaces(BlueZInterface.adapter, ["Powered": .bool(true), "Roles": .strings(["central"])])),
            (Self.nova, Self.interfaces(BlueZInterface.device, Self.novaProperties)),
        ]))
        #expect(changes.count == 2)
        #expect(objects.adapters[Self.adapter]?.powered == true)
        #expect(objects.adapters[Self.adapter]?.roles == ["central"])
        #expect(objects.adapters[Self.adapter]?.name == "hci0")
        let device = try #require(objects.devices[Self.nova])
        #expect(device.address == (try BluetoothAddress("AA:BB:CC:DD:EE:01")))
        #expect(device.name == "Nova" && device.rssi == -48 && !device.connected)
        #expect(device.services == [try BLEUUID("fff0")])
        #expect(device.manufacturerData == [0x004c: [2, 21]])
    }

    /// Properties changed, invalidated, and the bits the change must name.
    struct Named: Sendable, CustomTestStringConvertible {
        let changed: [String: DBusValue]
        let invalidated: [String]
        let named: BlueZDevice.Properties
        var testDescription: String { "\(changed.keys.sorted()) \(invalidated)" }
    }

    static let namedCases: [Named] = [
        Named(changed: ["RSSI": .int16(-40)], invalidated: [], named: .rssi),
        Named(changed: ["RSSI": .string("loud")], invalidated: [], named: .rssi),
        Named(
            changed: ["Name": .string("a"), "Alias": .string("b"), "UUIDs": .strings([]), "Adapter": .objectPath("/org/bluez/hci1")],
            invalidated: [], named: .descriptor),
        Named(
            changed: ["ServiceData": .dictionary(key: "s", value: "v", []), "Blocked": .bool(false)], invalidated: ["ManufacturerData"],
            named: [.advertData, .other]),
        Named(
            changed: [:], invalidated: ["TxPower", "Address", "ServicesResolved", "Connected"],
            named: [.txPower, .address, .servicesResolved, .connected]),
    ]

    @Test("a change names the properties it carried, known or not, mistyped or invalidated", arguments: namedCases)
    func namedProperties(_ example: Named) throws {
        var objects = BlueZObjects()
        _ = objects.interfacesAdded(Self.nova, Self.interfaces(BlueZInterface.device, Self.novaProperties))
        let changes = objects.propertiesChanged(
            Self.nova, interface: BlueZInterface.device, changed: .vardict(example.changed), invalidated: example.invalidated)
        #expect(changes == [.device(try #require(objects.devices[Self.nova]), properties: example.named)])
    }

    @Test("changes, invalidations and removals keep the cache current; removing a device takes its GATT objects")
    func updates() throws {
        var objects = BlueZObjects()
        _ = objects.interfacesAdded(Self.nova, Self.interfaces(BlueZInterface.device, Self.novaProperties))
        let changed = objects.propertiesChanged(
            Self.nova, interface: BlueZInterface.device, changed: .vardict(["RSSI": .int16(-40), "Connected": .bool(true)]),
            invalidated: [])
        let snapshot = try #require(objects.devices[Self.nova])
        #expect(changed == [.device(snapshot, properties: [.rssi, .connected])])
        #expect(snapshot.rssi == -40 && snapshot.connected)
        #expect(objects.devices[Self.nova]?.rssi == -40 && objects.devices[Self.nova]?.connected == true)
        let service = Self.nova + "/service0010"
        let characteristic = service + "/char0011"
        _ = objects.interfacesAdded(service, Self.interfaces(BlueZInterface.service, ["UUID": .string("fff0"), "Device": .objectPath(Self.nova)]))
        _ = objects.interfacesAdded(
            characteristic,
            Self.interfaces(BlueZInterface.characteristic, ["UUID": .string("fff3"), "Service": .objectPath(service), "Flags": .strings(["write"])]))
        #expect(objects.gattTree(of: Self.nova).map { $0.characteristics.map(\.flags) } == [[["write"]]])
        _ = objects.propertiesChanged(Self.nova, interface: BlueZInterface.device, changed: .vardict([:]), invalidated: ["RSSI"])
        #expect(objects.devices[Self.nova]?.rssi == nil)
        let removed = objects.interfacesRemoved(Self.nova, [BlueZInterface.device])
        #expect(Set(removed) == [.deviceRemoved(Self.nova), .gattRemoved(service), .gattRemoved(characteristic)])
        #expect(objects.devices.isEmpty && objects.services.isEmpty && objects.characteristics.isEmpty)
    }

    @Test(
        "values of an unexpected type are skipped, never trusted",
        arguments: [
            ("RSSI", DBusValue.string("-40")), ("Connected", .int32(1)), ("UUIDs", .string("fff0")),
            ("ManufacturerData", .array("a{qv}", [])), ("Address", .string("not an address")),
        ])
    func mistyped(property: String, value: DBusValue) {
        var objects = BlueZObjects()
        _ = objects.interfacesAdded(Self.nova, Self.interfaces(BlueZInterface.device, Self.novaProperties))
        let before = objects.devices[Self.nova]
        _ = objects.propertiesChanged(Self.nova, interface: BlueZInterface.device, changed: .vardict([property: value]), invalidated: [])
        let after = objects.devices[Self.nova]
        #expect(after?.rssi == before?.rssi && after?.connected == before?.connected && after?.services == before?.services)
        #expect(after?.manufacturerData == before?.manufacturerData)
        #expect(after?.address == before?.address)
    }

    @Test("signals for objects the cache does not know change nothing")
    func unknownObjects() {
        var objects = BlueZObjects()
        #expect(objects.propertiesChanged("/org/bluez/hci9/dev_X", interface: BlueZInterface.device, changed: .vardict(["RSSI": .int16(-1)]), invalidated: []).isEmpty)
        #expect(objects.interfacesRemoved("/nowhere", [BlueZInterface.device]).isEmpty)
        #expect(objects.devices.isEmpty)
    }

    /// ManufacturerData as BlueZ sends it: every company id it has seen, to its latest bytes.
    static func makers(_ entries: [UInt16: [UInt8]]) -> [String: DBusValue] {
        let list = entries.sorted { $0.key < $1.key }.map { DBusDictEntry(key: .uint16($0.key), value: .variant(.bytes($0.value))) }
        return ["ManufacturerData": .dictionary(key: "q", value: "v", list)]
    }

    @Test("the company id whose data changed last is recorded: ThermoPro and Inkbird send each reading under a new one")
    func latestManufacturer() throws {
        var objects = BlueZObjects()
        _ = objects.load(Self.managedObjects([(Self.nova, Self.interfaces(BlueZInterface.device, Self.novaProperties))]))
        #expect(objects.devices[Self.nova]?.latestManufacturer == 0x004C, "the only id at first")
        let device = BlueZInterface.device
        _ = objects.propertiesChanged(
            Self.nova, interface: device, properties: Self.makers([0x004C: [2, 21], 0xF1C2: [0, 0x1D]]), invalidated: [])
        #expect(objects.devices[Self.nova]?.latestManufacturer == 0xF1C2, "a new id")
        _ = objects.propertiesChanged(
            Self.nova, interface: device, properties: Self.makers([0x004C: [2, 22], 0xF1C2: [0, 0x1D]]), invalidated: [])
        #expect(objects.devices[Self.nova]?.latestManufacturer == 0x004C, "new bytes under an old id")
        _ = objects.propertiesChanged(
            Self.nova, interface: device, properties: Self.makers([0x004C: [2, 22], 0xF1C2: [0, 0x1D]]), invalidated: [])
        #expect(objects.devices[Self.nova]?.latestManufacturer == 0x004C, "nothing changed: the last one stands")
        _ = objects.propertiesChanged(
            Self.nova, interface: device, properties: Self.makers([0x004C: [1], 0xF1C2: [1], 0xF2C2: [1]]), invalidated: [])
        #expect(objects.devices[Self.nova]?.latestManufacturer == nil, "several at once: none is known to be newest")
        _ = objects.propertiesChanged(Self.nova, interface: device, properties: [:], invalidated: ["ManufacturerData"])
        #expect(objects.devices[Self.nova]?.latestManufacturer == nil && objects.devices[Self.nova]?.manufacturerData == [:])
    }
}

