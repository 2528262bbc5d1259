import BLEModels
import BlueZ
import DBus
import Logging
import Synchronization
import Testing
import TestSupport

@Suite("BlueZ client against the BlueZ stand-in on a real dbus-daemon", .timeLimit(.minutes(2)), .needs(.busMock))
struct BlueZClientTests {
    static let novaPath = "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01"

    /// A running client, followed in the harness's own isolation as the BLE driver follows it, and everything it
    /// reported so far.
    actor Harness {
        let standIn: BlueZStandIn
        let client: BlueZClient
        let connection: DBusConnection
        let events = Mutex<[BlueZClient.Event]>([])
        /// While set, no event is taken (as a driver busy with other work takes none): signals wait in the mailbox.
        private var held = false
        private var tasks: [Task<Void, Never>] = []

        init(standIn: BlueZStandIn) async throws {
            self.standIn = standIn
            connection = try await DBusConnection.connect(to: DBusAddress(standIn.daemon.address))
            client = BlueZClient(connection: connection, logger: Logger(label: "bluez-test"))
            start()
        }

        /// Takes no event until `release()`; one already being taken is finished.
        func hold() { held = true }

        /// Takes events again.
        func release() { held = false }

        private func start() {
            let bus = client.bus
            tasks = [Task { await bus.follow() }, Task { await self.record() }]
        }

        private func record() async {
            while true {
                while held { try? await Task.sleep(for: .milliseconds(5)) }
                guard let event = await client.next() else { return }
                events.withLock { $0.append(event) }
            }
        }

        /// The cache as it is now.
        var objects: BlueZObjects { client.objects }

        /// A BlueZ method call.
        func call(_ path: String, _ interface: String, _ method: String, _ arguments: [DBusValue] = []) async throws(DBusError) -> [DBusValue] {
            try await client.bus.call(path, interface, method, arguments)
        }

        func stop() async {
            for task in tasks { task.cancel() }
            await connection.close()
        }
    }

    @Test("the cache follows adverts, connections and GATT objects as BlueZ reports them")
    func followsBlueZ() async throws {
        let standIn = try await BlueZStandIn.start()
        let harness = try await Harness(standIn: standIn)
        try await waitUntil("BlueZ available with its adapter") { await harness.objects.adapters.count == 1 }
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:01")])
        try await standIn.advertise(Self.novaPath, rssi: -48)
        try await waitUntil("the advert's RSSI") { await harness.objects.devices[Self.novaPath]?.rssi == -48 }
        let device = try #require(await harness.objects.devices[Self.novaPath])
        let fff0 = try BLEUUID("fff0")
        #expect(device.name == "Nova" && device.services == [fff0])
        _ = try await harness.call(Self.novaPath, BlueZInterface.device, "Connect")
        try await waitUntil("connected with services resolved and the Nova's GATT tree") {
            let objects = await harness.objects
            return objects.devices[Self.novaPath]?.servicesResolved == true && objects.gattTree(of: Self.novaPath).first?.characteristics.count == 2
        }
        let tree = await harness.objects.gattTree(of: Self.novaPath)
        #expect(tree.first?.service.uuid == (try BLEUUID("fff0")))
        #expect(tree.first?.characteristics.compactMap(\.uuid) == [try BLEUUID("fff3"), try BLEUUID("fff4")])
        await harness.stop()
    }

    @Test("BlueZ's own errors reach the caller with their names")
    func blueZErrors() async throws {
        let standIn = try await BlueZStandIn.start()
        let harness = try await Harness(standIn: standIn)
        try await waitUntil("BlueZ available") { await harness.objects.adapters.count == 1 }
        _ = try await harness.call("/org/bluez/hci0", BlueZInterface.adapter, "StartDiscovery")
        do {
            _ = try await harness.call("/org/bluez/hci0", BlueZInterface.adapter, "StartDiscovery")
            Issue.record("a second StartDiscovery was accepted")
        } catch {
            #expect(error.name == "org.bluez.Error.InProgress", "\(error)")
        }
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:01")])
        try await standIn.mock("FailNextConnects", [.string(Self.novaPath), .uint32(1), .string("le-connection-abort-by-local")])
        do {
            _ = try await harness.call(Self.novaPath, BlueZInterface.device, "Connect")
            Issue.record("the failed connect succeeded")
        } catch {
            #expect(error.name == "org.bluez.Error.Failed" && error.message == "le-connection-abort-by-local", "\(error)")
        }
        await harness.stop()
    }

    @Test("bluetoothd going away empties the cache; coming back rebuilds it from GetManagedObjects")
    func restart() async throws {
        let standIn = try await BlueZStandIn.start()
        let harness = try await Harness(standIn: standIn)
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:01")])
        try await waitUntil("the Nova in the cache") { await harness.objects.devices.count == 1 }
        try await standIn.stop()
        try await waitUntil("the cache emptied") { await harness.objects.adapters.isEmpty }
        try await waitUntil("the unavailable event") { harness.events.withLock { $0.contains(.unavailable) } }
        try await standIn.restart(adapter: "hci1")
        try await waitUntil("the new BlueZ's adapter in the cache") { await harness.objects.adapters["/org/bluez/hci1"] != nil }
        #expect(await harness.objects.devices.isEmpty)
        try await waitUntil("an available event after the unavailable one") {
            harness.events.withLock { events in
                guard let gone = events.lastIndex(of: .unavailable) else { return false }
                return events[gone...].contains { if case .available = $0 { true } else { false } }
            }
        }
        await harness.stop()
    }

    @Test("an adapter powered off is reported off, and on again")
    func power() async throws {
        let standIn = try await BlueZStandIn.start()
        let harness = try await Harness(standIn: standIn)
        try await waitUntil("powered adapter") { await harness.objects.adapters["/org/bluez/hci0"]?.powered == true }
        try await standIn.mock("SetPowered", [.string("/org/bluez/hci0"), .bool(false)])
        try await waitUntil("adapter off") { await harness.objects.adapters["/org/bluez/hci0"]?.powered == false }
        try await standIn.mock("SetPowered", [.string("/org/bluez/hci0"), .bool(true)])
        try await waitUntil("adapter on") { await harness.objects.adapters["/org/bluez/hci0"]?.powered == true }
        await harness.stop()
    }

    @Test("service data adverts that wait together come as one change of the device, every payload in order")
    func foldedAdverts() async throws {
        // Taken while the client is held, as a driver busy with a batch takes none: the series waits together.
        let (standIn, harness) = try await quietNova()
        let before = harness.events.withLock { $0.count }
        let payloads = (0..<40).map { [UInt8(0x40), UInt8($0)] }
        await harness.hold()
        try await standIn.mock(
            "AdvertiseServiceDataSeries",
            [.string(Self.novaPath), .int16(-60), .string("fcd2"), .array("ay", payloads.map(DBusValue.bytes))])
        // The stand-in sends the signals before its reply; the bus hands them over within milliseconds.
        try await Task.sleep(for: .milliseconds(300))
        await harness.release()
        let uuid = BLEUUID(uuid16: 0xFCD2)
        let changes = try await waitForValue("every payload", timeout: .seconds(10)) { () -> [[[UInt8]]]? in
            let changes = harness.events.withLock { events in
                events[before...].flatMap { event -> [[[UInt8]]] in
                    guard case .changed(let changes) = event else { return [] }
                    return changes.compactMap { change in
                        guard case .device(let device, let properties, let earlier) = change, device.path == Self.novaPath,
                            properties.contains(.serviceData)
                        else { return nil }
                        return (earlier.map(\.serviceData) + [device.serviceData]).compactMap { $0[uuid] }
                    }
                }
            }
            return changes.joined().count >= payloads.count ? changes : nil
        }
        #expect(Array(changes.joined()) == payloads, "each payload once, in the order sent")
        #expect(changes.contains { $0.count > 1 }, "adverts that waited together came as one change: \(changes.map(\.count))")
        await harness.stop()
    }

    /// The Nova's changes after `before`.
    private func novaChanges(_ harness: Harness, after before: Int) -> [BlueZDevice] {
        harness.events.withLock { events in
            events[before...].flatMap { event -> [BlueZDevice] in
                guard case .changed(let changes) = event else { return [] }
                return changes.compactMap { change in
                    guard case .device(let device, _, _) = change, device.path == Self.novaPath else { return nil }
                    return device
                }
            }
        }
    }

    /// A client with a Nova in its cache.
    private func quietNova() async throws -> (BlueZStandIn, Harness) {
        let standIn = try await BlueZStandIn.start()
        let harness = try await Harness(standIn: standIn)
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:01")])
        try await waitUntil("the Nova in the cache") { await harness.objects.devices[Self.novaPath] != nil }
        return (standIn, harness)
    }

    @Test("nothing waits for more signals: each advert is handed over as it comes")
    func advertsDoNotWait() async throws {
        let (standIn, harness) = try await quietNova()
        let before = harness.events.withLock(\.count)
        for rssi in [-50, -51] {
            try await standIn.advertise(Self.novaPath, rssi: Int16(rssi))
            // From the call's return: the stand-in sends the signal before its reply.
            let start = ContinuousClock.now
            try await waitUntil("the advert at \(rssi)") { await harness.objects.devices[Self.novaPath]?.rssi == rssi }
            let took = ContinuousClock.now - start
            #expect(took < .seconds(5), "the advert at \(rssi) was handed over after \(took)")
        }
        #expect(novaChanges(harness, after: before).map(\.rssi) == [-50, -51])
        await harness.stop()
    }
}
