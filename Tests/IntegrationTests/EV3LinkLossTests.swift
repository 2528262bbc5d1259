import BridgeCore
import EV3Protocol
import EV3Simulator
import Foundation
import Testing
import TestSupport

extension EV3DaemonTests {
    @Suite("EV3 bricks that stall, drop, answer garbage or are disconnected", .tags(.integration, .process), .timeLimit(.minutes(3)), .needs(.broker))
    struct EV3LinkLossTests {
        @Test("a brick that stops answering times out into unavailable, and is ready again once it answers")
        func stalled() async throws {
            // The transport's own timeout (1 s over WiFi) is what this test is about.
            let rig = try await EV3Rig.start(replyTimeout: "1s")
            let events = try await rig.client.watchEvents()
            rig.simulator.setFault(.stall)
            try await rig.waitForStatus("unavailable")
            try await rig.waitForAvailability("offline")
            let lost = try await rig.client.waitForEvent("device_disconnected", after: events)
            #expect(lost["detail"]?.stringValue?.contains("stopped answering") == true, "\(lost)")
            // Unavailable, a brick takes no commands: refused at once, and nothing is queued for later.
            rig.set(#"{"motor_a": {"speed": 30}}"#)
            let refused = try await rig.client.waitForEvent("command_failed", after: events)
            #expect(refused["error"]?.stringValue?.contains("not connected") == true, "\(refused)")

            rig.simulator.setFault(.none)
            try await rig.waitForStatus("ready")
            try await rig.waitForAvailability("online")
            try await rig.client.waitForEvent("device_connected", after: events)
            #expect(rig.frames(opcode: 0xA5).isEmpty)
            try await rig.stop()
        }

        @Test("a dropped link reconnects by itself and the motion queued for the old connection never runs")
        func dropped() async throws {
            let rig = try await EV3Rig.start(replyTimeout: "10s")
            try await rig.waitForState("motors") { $0["motor_b"]?["position"] != nil }
            let mark = rig.simulator.receivedFrames().count
            rig.simulator.setFault(.delay(.seconds(2)))
            try await waitUntil("a request in flight") { rig.simulator.receivedFrames().count > mark }
            rig.set(#"{"motor_a": {"speed": 70}, "motor_b": {"power": -40}}"#)
            try await rig.client.expectHealthy()
            rig.simulator.setFault(.none)
            // The brick is switched off and on: the connection drops while the set-points wait behind the request.
            rig.simulator.dropConnections()
            try await rig.waitForStatus("unavailable")
            try await rig.waitForStatus("ready")
            let after = rig.simulator.receivedFrames().count
            try await waitUntil("polls on the new connection") { rig.frames(opcode: 0x81, after: after).count >= 3 }
            #expect(rig.frames(opcode: 0xA5, after: mark).isEmpty && rig.frames(opcode: 0xA4, after: mark).isEmpty)
            #expect(rig.simulator.motor(.a).speed == 0 && rig.simulator.motor(.b).speed == 0)
            // The same motor commands sent now do run.
            rig.set(#"{"motor_a": {"speed": 70}}"#)
            try await rig.waitForFrame("00 00 00 A5 00 01 81 46 A6 00 01", after: after)
            try await rig.stop()
        }

        @Test("a brick that answers garbage is dropped and reconnected; the daemon keeps serving", arguments: [
            EV3SimulatorFault.garbage, .wrongCounter,
        ])
        func garbage(_ fault: EV3SimulatorFault) async throws {
            let rig = try await EV3Rig.start(replyTimeout: "1s")
            rig.simulator.setFault(fault)
            try await rig.waitForStatus("unavailable")
            try await rig.client.expectHealthy()
            #expect(rig.bridge.isRunning)
            rig.simulator.setFault(.none)
            try await rig.waitForStatus("ready")
            rig.simulator.setSensorValues(port: 1, mode: 0, [1])
            try await rig.waitForState("polled again") { $0["port_1"]?["pressed"] == "ON" }
            try await rig.stop()
        }

        @Test("device/disconnect holds the brick down (no frame leaves) until device/connect")
        func connectionControl() async throws {
            let rig = try await EV3Rig.start()
            let disconnected = try await rig.client.request("device/disconnect", json: ["device": .string(rig.id)])
            #expect(disconnected["status"] == "ok", "\(disconnected)")
            try await rig.waitForStatus("available")
            let mark = rig.simulator.receivedFrames().count
            rig.set(#"{"led": "red"}"#)
            try await Task.sleep(for: .seconds(1))
            #expect(rig.simulator.receivedFrames().count == mark)

            let connected = try await rig.client.request("device/connect", json: ["device": .string(rig.id)], timeout: .seconds(30))
            #expect(connected["status"] == "ok", "\(connected)")
            try await rig.waitForStatus("ready")
            rig.set(#"{"led": "red"}"#)
            try await rig.waitForFrame("00 00 00 82 1B 02", after: mark)
            try await rig.stop()
        }
    }
}
