import BridgeCore
import DBus
import Foundation
import Harness
import Testing
import TestSupport

@Suite("Adverts in the first seconds after start", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker, .busMock))
struct EarlyAdvertTests {
    /// 1,000 sensors known to BlueZ before the bridge starts: it announces them all at once, and a new value sent
    /// meanwhile waits behind them (seconds on a loaded 2-core machine) but is never dropped.
    @Test("with 1,000 sensors known to BlueZ, every new value sent in the first seconds reaches its state")
    func earlyValues() async throws {
        let broker = try await Broker.start()
        let standIn = try await BlueZStandIn.start()
        let paths = try await standIn.mock("AddSensors", [.string("hci0"), .uint32(1), .uint32(1000)]).first?.array?.compactMap(\.string) ?? []
        #expect(paths.count == 1000)
        for (index, path) in paths.enumerated() {
            try await standIn.advertise(path, rssi: -60, serviceData: ["fcd2": PassiveSensorTests.bthome(packet: 1, centidegrees: Int16(2000 + index))])
        }
        let bridge = try BridgeProcess.start(
            config: TestConfig.yaml(port: broker.port, extra: "ble:\n  enabled: true\n"), environment: standIn.environment)
        try await bridge.waitUntilReady(on: broker)
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("t2m/+")
        var probes: [(topic: String, value: Double)] = []
        for probe in 0..<8 {
            let index = probe * 7
            let value = Int16(3000 + probe)
            try await standIn.advertise(
                paths[index], rssi: -60, serviceData: ["fcd2": PassiveSensorTests.bthome(packet: UInt8(10 + probe), centidegrees: value)])
            probes.append(("t2m/ble_a4c1380000" + String(format: "%02x", index + 1), Double(value) / 100))
            try await Task.sleep(for: .milliseconds(250))
        }
        for (topic, value) in probes {
            try await client.waitForMessage(topic: topic, where: { $0.json?["temperature"] == .number(value) })
        }
        #expect(try await bridge.terminate() == 0)
        await client.close()
    }
}
