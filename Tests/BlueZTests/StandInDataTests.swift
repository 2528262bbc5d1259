import BLEFormats
import BLEModels
import BlueZ
import BridgeCore
import DBus
import Synchronization
import Testing
import TestSupport

@Suite("The BlueZ stand-in's advert data and standard services, over a real dbus-daemon", .timeLimit(.minutes(2)), .needs(.busMock))
struct StandInDataTests {
    static let sensor = "/org/bluez/hci0/dev_A4_C1_38_12_34_56"
    static let iBeacon: [UInt8] = [
        0x02, 0x15, 0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0, 0x00, 0x01,
        0x00, 0x02, 0xC5,
    ]
    static let bthome: [UInt8] = [0x40, 0x02, 0xC4, 0x09, 0x03, 0xBF, 0x13]
    static let pvvx: [UInt8] = [0x56, 0x34, 0x12, 0x38, 0xC1, 0xA4, 0x29, 0x09, 0xD7, 0x11, 0x86, 0x0B, 0x55, 0x12, 0x05]

    /// The Device1 PropertiesChanged signals of one device, as they arrive.
    final class Recorder: Sendable {
        final class Log: Sendable {
            let signals = Mutex<[DBusSignal]>([])
        }

        let log = Log()
        let task: Task<Void, Never>

        init(_ connection: DBusConnection, path: String) async throws {
            let rule = DBusMatchRule(
                sender: "org.bluez", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", path: path)
            let stream = try await connection.subscribe(rule)
            let log = log
            task = Task { for await signal in stream { log.signals.withLock { $0.append(signal) } } }
        }

        func first(with property: String) -> DBusSignal? {
            log.signals.withLock { $0.first { $0.body.count == 3 && $0.body[1].dictionary?[property] != nil } }
        }
    }

    @Test(
        "an advert is one PropertiesChanged with RSSI n, ManufacturerData a{qv} and ServiceData a{sv} of ay; the cache and decoders read it"
    )
    func advertTypes() async throws {
        let standIn = try await BlueZStandIn.start()
        let harness = try await BlueZClientTests.Harness(standIn: standIn)
        try await standIn.mock("AddDevice", [.string("hci0"), .string("A4:C1:38:12:34:56"), .string("ATC_123456")])
        let recorder = try await Recorder(harness.connection, path: Self.sensor)
        try await standIn.advertise(
            Self.sensor, rssi: -59, manufacturerData: [0x004C: Self.iBeacon], serviceData: ["fcd2": Self.bthome, "181A": Self.pvvx])
        try await waitUntil("the advert's signal") { recorder.first(with: "ServiceData") != nil }
        let signal = try #require(recorder.first(with: "ServiceData"))
        #expect(signal.interface == "org.freedesktop.DBus.Properties" && signal.body.map(\.signature) == ["s", "a{sv}", "as"])
        #expect(signal.body[0] == .string(BlueZInterface.device))
        // The raw entries, variants kept, so the types on the wire are what is compared.
        let entries = try #require(signal.body[1].entries)
        let changed = Dictionary(uniqueKeysWithValues: entries.compactMap { entry in entry.key.string.map { ($0, entry.value) } })
        #expect(Set(changed.keys) == ["RSSI", "ManufacturerData", "ServiceData"])
        #expect(changed["RSSI"] == .variant(.int16(-59)))
        let apple = DBusDictEntry(key: .uint16(0x004C), value: .variant(.bytes(Self.iBeacon)))
        #expect(changed["ManufacturerData"] == .variant(.dictionary(key: "q", value: "v", [apple])))
        guard case .variant(.dictionary(key: "s", value: "v", let services))? = changed["ServiceData"] else {
            Issue.record("ServiceData is \(String(describing: changed["ServiceData"]))")
            return
        }
        #expect(
            Set(services) == [
                DBusDictEntry(key: .string("0000fcd2-0000-1000-8000-00805f9b34fb"), value: .variant(.bytes(Self.bthome))),
                DBusDictEntry(key: .string("0000181a-0000-1000-8000-00805f9b34fb"), value: .variant(.bytes(Self.pvvx))),
            ])

        // What is stored is what a GetManagedObjects after a restart would carry: the same types.
        let stored = try await standIn.control.call(
            destination: "org.bluez", path: Self.sensor, interface: "org.freedesktop.DBus.Properties", method: "Get",
            arguments: [.string(BlueZInterface.device), .string("ServiceData")])
        #expect(stored.first?.unwrapped.signature == "a{sv}")

        try await waitUntil("the cache holds the data") { await harness.objects.devices[Self.sensor]?.serviceData.count == 2 }
        let device = try #require(await harness.objects.devices[Self.sensor])
        #expect(device.manufacturerData == [0x004C: Self.iBeacon])
        let advert = Advert(
            sender: device.address, rssi: device.rssi, manufacturerData: device.manufacturerData, serviceData: device.serviceData)
        let results = PassiveDecoder.decode(advert, formats: PassiveFormats(PassiveFormat.allCases))
        #expect(results.map(\.format) == [.bthome, .pvvx, .ibeacon])
        let recognised = results.filter(\.isRecognised).count
        #expect(recognised == 3)
        #expect(results.first?.decoded.reading?.state == ["temperature": 25, "humidity": 50.55])
        #expect(results.last?.decoded.reading?["estimated_distance"] == .number(1))
        recorder.task.cancel()
        await harness.stop()
    }

    static let strap = "/org/bluez/hci0/dev_C0_FF_EE_00_18_0D"

    /// Reads a characteristic through BlueZ and decodes it as the standard characteristic it is.
    static func read(_ harness: BlueZClientTests.Harness, _ standIn: BlueZStandIn, _ uuid: UInt16) async throws -> Reading? {
        let path = try await standIn.characteristicPath(device: strap, uuid: String(uuid, radix: 16))
        let reply = try await harness.call(path, BlueZInterface.characteristic, "ReadValue", [.vardict([:])])
        #expect(reply.map(\.signature) == ["ay"])
        return StandardCharacteristic.decode(BLEUUID(uuid16: uuid), reply.first?.bytes ?? [])?.reading
    }

    @Test(
        "a device with the standard services: advertised UUIDs, then once connected its GATT tree, readable values and notifications"
    )
    func standardServices() async throws {
        let standIn = try await BlueZStandIn.start()
        let harness = try await BlueZClientTests.Harness(standIn: standIn)
        let path = try await standIn.addStandardDevice(
            "C0:FF:EE:00:18:0D", name: "Heart Strap", profiles: BlueZStandIn.Profile.allCases)
        #expect(path == Self.strap)
        try await waitUntil("the advertised services") { await harness.objects.devices[Self.strap]?.services.count == 3 }
        let advertised = try #require(await harness.objects.devices[Self.strap]?.services)
        #expect(Set(advertised) == [BLEUUID(uuid16: 0x180F), BLEUUID(uuid16: 0x180D), BLEUUID(uuid16: 0x181A)])

        _ = try await harness.call(Self.strap, BlueZInterface.device, "Connect")
        try await waitUntil("services resolved with four services") {
            let objects = await harness.objects
            return objects.devices[Self.strap]?.servicesResolved == true && objects.gattTree(of: Self.strap).count == 4
                && objects.gattTree(of: Self.strap).allSatisfy { !$0.characteristics.isEmpty }
        }
        let tree = await harness.objects.gattTree(of: Self.strap)
        let names = tree.compactMap { $0.service.uuid.flatMap { GATTNames.service($0) } }
        #expect(names == ["Battery", "Heart Rate", "Environmental Sensing", "Device Information"])
        let heartRate = try #require(tree.first { $0.service.uuid == BLEUUID(uuid16: 0x180D) })
        #expect(heartRate.characteristics.compactMap { $0.uuid.flatMap { GATTNames.characteristic($0) } } == [
            "Heart Rate Measurement", "Body Sensor Location", "Heart Rate Control Point",
        ])
        #expect(heartRate.characteristics.map { CharacteristicFlags(bluez: $0.flags) } == [[.notify], [.read], [.write]])

        #expect(try await Self.read(harness, standIn, 0x2A19)?["battery"] == .number(90))
        #expect(try await Self.read(harness, standIn, 0x2A6E)?["temperature"] == .number(21.5))
        #expect(try await Self.read(harness, standIn, 0x2A6F)?["humidity"] == .number(50.6))
        #expect(try await Self.read(harness, standIn, 0x2A29)?["manufacturer"] == .text("things2mqtt"))
        #expect(try await Self.read(harness, standIn, 0x2A24)?["model"] == .text("Heart Strap"))
        #expect(try await Self.read(harness, standIn, 0x2A26)?["firmware"] == .text("1.2.3"))
        #expect(try await Self.read(harness, standIn, 0x2A27)?["hardware"] == .text("rev-B"))
        #expect(try await Self.read(harness, standIn, 0x2A28)?["software"] == .text("4.5.6"))
        #expect(try await Self.read(harness, standIn, 0x2A25)?["serial"] == .text("C0FFEE00180D"))

        let measurement = try await standIn.characteristicPath(device: Self.strap, uuid: "2a37")
        do {
            _ = try await harness.call(measurement, BlueZInterface.characteristic, "ReadValue", [.vardict([:])])
            Issue.record("a notify-only characteristic was read")
        } catch {
            #expect(error.name == "org.bluez.Error.NotPermitted", "\(error)")
        }
        _ = try await harness.call(measurement, BlueZInterface.characteristic, "StartNotify")
        try await waitUntil("notifying") { await harness.objects.characteristics[measurement]?.notifying == true }
        try await standIn.notify(measurement, value: [0x16, 0x48, 0x00, 0x04])
        try await waitUntil("the notified value in the cache") {
            await harness.objects.characteristics[measurement]?.value.count == 4
        }
        let value = try #require(await harness.objects.characteristics[measurement]?.value)
        let reading = try #require(StandardCharacteristic.decode(StandardCharacteristic.heartRateMeasurement, value)?.reading)
        #expect(reading.state == ["heart_rate": 72, "sensor_contact": "ON", "rr_intervals": [1]])

        _ = try await harness.call(Self.strap, BlueZInterface.device, "Disconnect")
        let battery = try await standIn.characteristicPath(device: Self.strap, uuid: "2a19")
        do {
            _ = try await harness.call(battery, BlueZInterface.characteristic, "ReadValue", [.vardict([:])])
            Issue.record("a disconnected device was read")
        } catch {
            #expect(error.name == "org.bluez.Error.Failed" && error.message == "Not connected", "\(error)")
        }
        await harness.stop()
    }
}
