import BLEDriver
import BridgeCore
import DBus
import Logging
import Synchronization
import Testing
import TestSupport

@Suite("The BLE driver reports a device as heard only to a cluster", .tags(.integration), .needs(.busMock), .timeLimit(.minutes(2)))
struct BLEHeardTests {
    @Test("heard goes out in a cluster and never without one", arguments: [false, true])
    func heardOnlyInACluster(shared: Bool) async throws {
        let standIn = try await BlueZStandIn.start()
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:01")])
        let id = DeviceID("ble_aabbccddee01")!
        let events = Mutex<[DeviceEvent]>([])
        let sink = DeviceEventSink({ event in events.withLock { $0.append(event) } }, all: { batch in events.withLock { $0 += batch } })
        // Every RSSI change published, so the test sees when the last advert was taken.
        var settings = BLESettings()
        settings.rssiInterval = .seconds(0)
        let driver = BLEDriver(
            settings: settings, configured: [id], address: DBusAddress(standIn.daemon.address), sink: sink,
            logger: Logger(label: "ble-heard-test"), shared: shared)
        let run = Task { try await driver.run() }
        let path = BlueZStandIn.devicePath("AA:BB:CC:DD:EE:01")
        try await waitUntil("the Nova described") {
            events.withLock { $0.contains { if case .discovered(let descriptor) = $0 { descriptor.id == id } else { false } } }
        }
        // Adverts for longer than twice the half second between two reports of a device heard.
        for rssi in stride(from: -60, to: -72, by: -1) {
            try await standIn.advertise(path, rssi: Int16(rssi))
            try await Task.sleep(for: .milliseconds(120))
        }
        try await waitUntil("the last advert taken") {
            events.withLock { $0.contains { if case .state(id, let state) = $0 { state["rssi"] == -71 } else { false } } }
        }
        let heard = events.withLock { $0.filter { if case .heard = $0 { true } else { false } }.count }
        if shared {
            #expect(heard >= 2, "a cluster's bridge reports the device it hears: \(heard)")
        } else {
            #expect(heard == 0, "nobody reads heard without a cluster: \(heard) sent")
        }
        run.cancel()
        _ = await run.result
    }
}
