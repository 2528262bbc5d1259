import BridgeCore
import EV3Simulator
import Foundation
import Testing
import TestSupport

extension EV3DaemonTests {
    @Suite("Forged EV3 beacons through the daemon", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker))
    struct EV3BeaconAdmissionTests {
        /// Sends one beacon datagram to 127.0.0.1:`port`, as anyone on the LAN could.
        static func sendBeacon(serial: String, tcpPort: Int, to port: Int) throws {
            let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
            guard fd >= 0 else { throw TestFailure("socket() failed") }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let datagram = Array("Serial-Number: \(serial)\r\nPort: \(tcpPort)\r\nName: EV3\r\nProtocol: EV3\r\n".utf8)
            let sent = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, datagram, datagram.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard sent == datagram.count else { throw TestFailure("sendto() failed") }
        }

        static func ev3Devices(_ broker: Broker) async throws -> [String] {
            guard case .array(let list)? = try await broker.retainedJSON("t2m/bridge/devices") else { return [] }
            return list.compactMap { $0["id"]?.stringValue }.filter { $0.hasPrefix("ev3_") }
        }

        @Test("40 forged beacons, one of them naming a brick that answers: none is connected, one event; ev3/permit lets one in")
        func forgedBeacons() async throws {
            let broker = try await Broker.start()
            // A brick that answers on TCP, standing in for whatever a forger points its beacons at.
            let decoy = EV3BrickSimulator()
            defer { decoy.stop() }
            let tcpPort = try decoy.startWiFi(port: 0)
            let udp = try LocalPorts.freeUDP()
            let section = "ev3:\n  enabled: true\n  discovery: {wifi: true, beacon_port: \(udp), usb: false}\n"
            let bridge = try BridgeProcess.start(config: TestConfig.yaml(port: broker.port, extra: section))
            try await bridge.waitUntilReady(on: broker)
            let client = try await TestClient.connect(to: broker)
            let mark = try await client.watchEvents()
            for index in 0..<40 {
                // Each with its own serial and endpoint; the first names the decoy.
                try Self.sendBeacon(serial: String(format: "deadbeef%04x", index), tcpPort: index == 0 ? tcpPort : 40_000 + index, to: udp)
            }
            // Long enough for a connection and an announcement, had one been admitted.
            try await Task.sleep(for: .seconds(3))
            #expect(decoy.receivedFrames().count == 0, "the bridge connected to a forged beacon's endpoint")
            #expect(try await Self.ev3Devices(broker).isEmpty)
            let refused = try await client.waitForEvent("admission_refused", after: mark)
            #expect(refused["integration"] == "ev3" && refused["reason"] == "permit_closed", "\(refused)")
            let events = client.messages(on: "t2m/bridge/event").filter { $0.index >= mark && $0.json?["type"] == "admission_refused" }
            #expect(events.count == 1, "\(events.map(\.text))")

            // The permit window admits the next beacon.
            let permit = try await client.request("ev3/permit", #"{"time": 60}"#)
            #expect(permit["status"] == "ok", "\(permit)")
            try Self.sendBeacon(serial: "0016533f0c1e", tcpPort: tcpPort, to: udp)
            try await waitUntil("the permitted brick", timeout: .seconds(20), every: .milliseconds(200)) {
                try await Self.ev3Devices(broker) == ["ev3_0016533f0c1e"]
            }
            #expect(try await bridge.terminate() == 0)
            await client.close()
        }
    }
}
