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
        /// `burstGoesOn` as each event left it.
        let burstFlags = Mutex<[Bool]>([])
        /// When each event was handed over.
        let times = Mutex<[ContinuousClock.Instant]>([])
        private var tasks: [Task<Void, Never>] = []

        init(
            standIn: BlueZStandIn, batchInterval: Duration = .milliseconds(10), burstSignals: Int = 16,
            quietSpell: Duration = .milliseconds(3)
        ) async throws {
            self.standIn = standIn
            connection = try await DBusConnection.connect(to: DBusAddress(standIn.daemon.address))
            client = BlueZClient(
                connection: connection, logger: Logger(label: "bluez-test"), batchInterval: batchInterval,
                burstSignals: burstSignals, quietSpell: quietSpell)
            start()
        }

        private func start() {
            let bus = client.bus
            tasks = [Task { await bus.follow() }, Task { await self.record() }]
        }

        private func record() async {
            while let event = await client.next() {
                events.withLock { $0.append(event) }
                burstFlags.withLock { $0.append(client.burstGoesOn) }
                times.withLock { $0.append(.now) }
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
        // Any batch starts a burst, and the next waits 2 s: the series after its first advert waits together.
        let (standIn, harness) = try await quietNova(burstSignals: 1)
        let before = harness.events.withLock { $0.count }
        let payloads = (0..<40).map { [UInt8(0x40), UInt8($0)] }
        try await standIn.mock(
            "AdvertiseServiceDataSeries",
            [.string(Self.novaPath), .int16(-60), .string("fcd2"), .array("ay", payloads.map(DBusValue.bytes))])
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

    static let interval = Duration.seconds(2)
    /// For tests that show something ends a wait early: an interval so long that a loaded machine (a stand-in's
    /// call plus the test's polling once took 1.2 s and 1.3 s at the suite's start, and 3.5 s and 3.8 s in a loaded
    /// CI pass) cannot blur which ended it, while a client that waits it out still fails "< interval / 2".
    static let longInterval = Duration.seconds(10)

    /// A client with a long batch interval (and by default as long a quiet spell), a Nova in its cache, and a
    /// quiet interval since.
    private func quietNova(
        burstSignals: Int, quietSpell: Duration = interval, batchInterval: Duration = interval
    ) async throws -> (BlueZStandIn, Harness) {
        let standIn = try await BlueZStandIn.start()
        let harness = try await Harness(
            standIn: standIn, batchInterval: batchInterval, burstSignals: burstSignals, quietSpell: quietSpell)
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:01")])
        try await waitUntil("the Nova in the cache") { await harness.objects.devices[Self.novaPath] != nil }
        try await Task.sleep(for: batchInterval + .milliseconds(200))
        return (standIn, harness)
    }

    /// The Nova's adverts every 20 ms (slower on a busy machine, but far from the quiet spells here), its RSSI
    /// alternating between -60 and -61, until the task is cancelled.
    private func advertising(_ standIn: BlueZStandIn) -> Task<Void, Never> {
        Task {
            var rssi: Int16 = -60
            while !Task.isCancelled {
                try? await standIn.advertise(Self.novaPath, rssi: rssi)
                rssi = rssi == -60 ? -61 : -60
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    @Test("a burst's batches say the burst goes on; once it stops, a batch says so, with no change if need be")
    func burstEndIsHandedOver() async throws {
        let (standIn, harness) = try await quietNova(
            burstSignals: 1, quietSpell: .milliseconds(400), batchInterval: .milliseconds(600))
        // Only the batch interval ends each wait while the adverts come.
        let adverts = advertising(standIn)
        try await waitUntil("a batch of a burst that goes on", timeout: .seconds(10)) {
            harness.burstFlags.withLock { $0.contains(true) }
        }
        adverts.cancel()
        _ = await adverts.value
        // The end may have been handed over before this task ran again (on a loaded machine it can wait longer
        // than the quiet spell): what counts is that the last batch says the burst ended, and nothing follows.
        try await waitUntil("the burst's end handed over") { harness.burstFlags.withLock { $0.last == false } }
        let ended = harness.events.withLock(\.count)
        try await Task.sleep(for: .milliseconds(500))
        #expect(harness.events.withLock(\.count) == ended, "nothing more once the end was handed over")
        await harness.stop()
    }

    @Test("when a burst stops with nothing after its last batch, an empty batch says it ended")
    func emptyEndOfBurst() async throws {
        let (standIn, harness) = try await quietNova(
            burstSignals: 1, quietSpell: .milliseconds(100), batchInterval: .milliseconds(400))
        let before = harness.events.withLock(\.count)
        try await standIn.advertise(Self.novaPath, rssi: -50)
        try await waitUntil("the burst's end") { harness.events.withLock(\.count) >= before + 2 }
        try await Task.sleep(for: .milliseconds(500))
        let events = harness.events.withLock { Array($0.dropFirst(before)) }
        let flags = harness.burstFlags.withLock { Array($0.dropFirst(before)) }
        #expect(events.count == 2 && events.last == .changed([]), "\(events)")
        #expect(flags == [true, false], "a batch of one signal is a burst here; the empty one ends it")
        await harness.stop()
    }

    @Test("when adverts stop, what came is taken once the loop has waited a quarter spell, still in the burst; an empty batch ends it")
    func quietingTakesWhatCame() async throws {
        // Long, as a loaded machine wakes a sleeper hundreds of milliseconds late. No batch is taken at an
        // interval's end here, so only the loop's wait ends a wait.
        let spell = Duration.seconds(2)
        let (standIn, harness) = try await quietNova(burstSignals: 1, quietSpell: spell, batchInterval: Self.longInterval)
        let before = harness.events.withLock(\.count)
        let adverts = advertising(standIn)
        try await waitUntil("the adverts") { await [-60, -61].contains(harness.objects.devices[Self.novaPath]?.rssi) }
        // Longer than a spell: the first wait after the burst's first batch found nothing to take, and sleeps a
        // whole spell before it looks again.
        try await Task.sleep(for: spell + .milliseconds(500))
        adverts.cancel()
        await adverts.value
        try await waitUntil("the burst's end") { harness.burstFlags.withLock { $0.count > before && $0.last == false } }
        let events = harness.events.withLock { Array($0.dropFirst(before)) }
        let flags = harness.burstFlags.withLock { Array($0.dropFirst(before)) }
        let times = harness.times.withLock { Array($0.dropFirst(before)) }
        #expect(events.count >= 2 && events.last == .changed([]), "an empty batch ends the burst: \(events)")
        guard events.count >= 2, case .changed(let last) = events[events.count - 2] else { return }
        #expect(!last.isEmpty && flags.suffix(2) == [true, false], "the last adverts came in the burst: \(events) \(flags)")
        // Both are timed from the loop's wait: the last adverts a quarter spell into it, the end a whole spell.
        let apart = times[times.count - 1] - times[times.count - 2]
        #expect(apart >= spell / 4, "the last adverts were taken \(apart) before the burst's end")
        await harness.stop()
    }

    @Test("after a burst (here: one signal is one) the next signals wait for the batch interval and arrive merged")
    func batches() async throws {
        // The long interval: on a loaded machine the stand-in's three calls once took longer than 2 s. The loop waits
        // between them: a spell four intervals long keeps what came from being taken before the interval's end.
        let (standIn, harness) = try await quietNova(
            burstSignals: 1, quietSpell: Self.longInterval * 4, batchInterval: Self.longInterval)
        let lone = ContinuousClock.now
        try await standIn.advertise(Self.novaPath, rssi: -50)
        // A batch of one signal: a burst here, so what follows within the interval waits.
        try await waitUntil("the lone advert") { await harness.objects.devices[Self.novaPath]?.rssi == -50 }
        let before = harness.events.withLock(\.count)
        for rssi: Int16 in [-51, -52, -53] { try await standIn.advertise(Self.novaPath, rssi: rssi) }
        try await waitUntil("the burst's last value") { await harness.objects.devices[Self.novaPath]?.rssi == -53 }
        let burstTook = ContinuousClock.now - lone
        #expect(
            novaChanges(harness, after: before).map(\.rssi) == [-53],
            "three adverts inside one interval arrive as one change with the newest value")
        #expect(burstTook >= Self.longInterval - .milliseconds(100), "the burst was handed over after \(burstTook)")
        await harness.stop()
    }

    @Test("after a burst, a quiet spell without signals hands what came over before the batch interval ends")
    func quietSpellEndsTheWait() async throws {
        let interval = Self.longInterval
        let (standIn, harness) = try await quietNova(
            burstSignals: 1, quietSpell: .milliseconds(200), batchInterval: interval)
        try await standIn.advertise(Self.novaPath, rssi: -50)
        try await waitUntil("the lone advert") { await harness.objects.devices[Self.novaPath]?.rssi == -50 }
        let before = harness.events.withLock(\.count)
        try await standIn.advertise(Self.novaPath, rssi: -51)
        // From the call's return: the stand-in sends the signal before its reply, and a loaded stand-in is slow to
        // do either; what is timed is the client's wait.
        let start = ContinuousClock.now
        try await waitUntil("the advert after the burst") { await harness.objects.devices[Self.novaPath]?.rssi == -51 }
        let took = ContinuousClock.now - start
        #expect(took < interval / 2, "handed over after \(took), not at the end of the \(interval) interval")
        #expect(novaChanges(harness, after: before).map(\.rssi) == [-51])
        await harness.stop()
    }

    @Test("in a burst, a change that is more than an advert (a connection) ends the wait for the next batch")
    func connectionDoesNotWait() async throws {
        let interval = Self.longInterval
        let (standIn, harness) = try await quietNova(burstSignals: 1, quietSpell: .milliseconds(300), batchInterval: interval)
        // No quiet spell ends the wait while the adverts come, so only the connection can.
        let adverts = advertising(standIn)
        defer { adverts.cancel() }
        // Either value: a batch hands over the newest of the two, and with a 6 s interval waiting for one of
        // them could take several batches.
        try await waitUntil("the adverts") { await [-60, -61].contains(harness.objects.devices[Self.novaPath]?.rssi) }
        _ = try await harness.call(Self.novaPath, BlueZInterface.device, "Connect")
        // From the call's return, as above: the connection's change is sent before the reply.
        let start = ContinuousClock.now
        try await waitUntil("the connection") { await harness.objects.devices[Self.novaPath]?.connected == true }
        let took = ContinuousClock.now - start
        #expect(took < interval / 2, "handed over after \(took), not at the end of the \(interval) interval")
        await harness.stop()
    }

    @Test("after a batch smaller than a burst nothing waits: each advert is handed over as it comes")
    func smallBatchesDoNotWait() async throws {
        // Far above the one signal an advert is, so a stray signal of the Nova's set-up in the same batch
        // does not make a burst of it.
        let (standIn, harness) = try await quietNova(burstSignals: 50, batchInterval: Self.longInterval)
        let before = harness.events.withLock(\.count)
        for rssi in [-50, -51] {
            try await standIn.advertise(Self.novaPath, rssi: Int16(rssi))
            // From the call's return: the stand-in sends the signal before its reply.
            let start = ContinuousClock.now
            try await waitUntil("the advert at \(rssi)") { await harness.objects.devices[Self.novaPath]?.rssi == rssi }
            let took = ContinuousClock.now - start
            #expect(took < Self.longInterval / 2, "the advert at \(rssi) was handed over after \(took)")
        }
        #expect(novaChanges(harness, after: before).map(\.rssi) == [-50, -51])
        await harness.stop()
    }
}
