import BridgeCore
import EV3Protocol
import EV3Simulator
import Foundation
import Testing
import TestSupport

extension EV3DaemonTests {
    @Suite("EV3 commands through the daemon, as bytes at the brick", .tags(.integration, .process), .timeLimit(.minutes(3)), .needs(.broker))
    struct EV3CommandTests {
        /// `/set` payloads (with the attribute of `/set/<attribute>`, if any) and the frame each must become at the
        /// brick, from its type byte on: `00` (reply wanted), the globals and locals header, the bytecode.
        static let commands: [(String?, String, String)] = [
            (nil, #"{"motor_a": {"speed": 50}}"#, "00 00 00 A5 00 01 81 32 A6 00 01"),
            (nil, #"{"motor_b": {"power": -100}}"#, "00 00 00 A4 00 02 81 9C A6 00 02"),
            (nil, #"{"motor_c": {"speed": 30, "degrees": 720, "brake": false}}"#, "00 00 00 AE 00 04 1E 00 82 D0 02 00 00"),
            (nil, #"{"motor_a": {"power": 60, "time_ms": 2000}}"#, "00 00 00 AD 00 01 81 3C 00 82 D0 07 00 01"),
            (nil, #"{"motor_b": "stop"}"#, "00 00 00 A3 00 02 00"),
            (nil, #"{"motor_c": {"stop": true, "brake": true}}"#, "00 00 00 A3 00 04 01"),
            (nil, #"{"stop": true}"#, "00 00 00 A3 00 0F 00"),
            ("stop_motors", "stop", "00 00 00 A3 00 0F 00"),
            (nil, #"{"led": "orange_flash"}"#, "00 00 00 82 1B 06"),
            ("led", "red_pulse", "00 00 00 82 1B 08"),
            (nil, #"{"tone": {"frequency": 440, "duration_ms": 500, "volume": 50}}"#, "00 00 00 94 01 81 32 82 B8 01 82 F4 01"),
            (nil, #"{"beep": true}"#, "00 00 00 94 01 81 32 82 E8 03 82 C8 00"),
            (nil, #"{"sound": "Download"}"#, "00 00 00 94 02 81 32 84 44 6F 77 6E 6C 6F 61 64 00"),
            (nil, #"{"name": "robot1"}"#, "00 00 00 D4 08 84 72 6F 62 6F 74 31 00"),
            // READY_SI on port 2 as a colour sensor (type 29) in COLOR mode (2), one value: the mode change.
            (nil, #"{"port_2_mode": "color"}"#, "00 04 00 99 1D 00 01 1D 02 01 60"),
            ("port_4_mode", "rate", "00 04 00 99 1D 00 03 81 20 01 01 60"),
        ]

        @Test("every command reaches the brick as exactly its bytes, and the state shows it")
        func exactBytes() async throws {
            let rig = try await EV3Rig.start()
            try await rig.waitForState("ports") { $0["port_4"]?["angle"] != nil && $0["motor_c"] != nil }
            for (attribute, payload, frame) in Self.commands {
                let mark = rig.simulator.receivedFrames().count
                rig.set(payload, attribute: attribute)
                try await rig.waitForFrame(frame, after: mark)
            }
            let state = try await rig.waitForState("state after the commands") {
                $0["led"] == "red_pulse" && $0["name"] == "robot1" && $0["port_2"]?["color"] == "red" && $0["port_4"]?["rate"] != nil
            }
            #expect(state["port_2"]?["mode"] == "color" && state["port_4"]?["mode"] == "rate")
            #expect(rig.simulator.name == "robot1" && rig.simulator.led == 8)
            #expect(
                rig.simulator.events().contains(.tone(volume: 50, frequency: 440, milliseconds: 500))
                    && rig.simulator.events().contains(.sound(volume: 50, file: "Download", repeating: false)))
            // The devices' Home Assistant entities for the new modes replaced the old ones.
            try await waitUntil("the colour entity") {
                rig.entities()["port_2_color"] != nil && rig.entities()["port_2_reflected"] == nil
            }
            try await rig.stop()
        }

        @Test("values out of range, or that do not go together, fail the command; not one frame leaves")
        func refused() async throws {
            let rig = try await EV3Rig.start()
            try await rig.waitForState("ports") { $0["port_1"]?["pressed"] != nil && $0["motor_c"] != nil }
            let events = try await rig.client.watchEvents()
            // Ten: the bridge passes ten failures a device per ten seconds and summarises the rest.
            let refused: [(String, String)] = [
                (#"{"motor_a": {"speed": 101}}"#, "motor_a.speed 101 is out of range -100–100"),
                (#"{"motor_a": {"speed": 10, "power": 10}}"#, "motor_a: give speed or power, not both"),
                (#"{"motor_d": {"speed": 10}}"#, "unknown or read-only attribute \"motor_d\""),
                (#"{"led": "blue"}"#, "led must be one of off, green"),
                (#"{"name": "a name too long"}"#, "name is 15 characters long, more than 12"),
                (#"{"name": "äöüäöüä"}"#, "SET_BRICKNAME name: 14 bytes, more than 12"),
                (#"{"tone": {"frequency": 20}}"#, "tone.frequency 20 is out of range 250–10000"),
                (#"{"port_1_mode": "color"}"#, "port_1.mode must be one of touch, bumps"),
                (#"{"sound": ""}"#, "PLAY file: empty"),
                (#"{"stop": false}"#, "stop must be one of stop (or true)"),
            ]
            let before = rig.simulator.receivedFrames().count
            for (payload, reason) in refused {
                let mark = rig.client.mark
                rig.set(payload)
                let event = try await rig.client.waitForEvent("command_failed", after: max(mark, events))
                #expect(event["error"]?.stringValue?.contains(reason) == true, "\(payload): \(event)")
            }
            // Everything the brick got meanwhile were polls: each starts with the brick's battery read.
            let commands = rig.simulator.receivedFrames().dropFirst(before).filter { $0.count > 7 && $0[7] != 0x81 && $0[7] != 0x99 }
            #expect(commands.isEmpty, "\(commands.map(hex))")
            try await rig.stop()
        }

        @Test("a motor slider dragged while the brick is busy reaches it as its last value")
        func coalescing() async throws {
            let rig = try await EV3Rig.start(replyTimeout: "10s")
            try await rig.waitForState("motor A") { $0["motor_a"]?["position"] != nil }
            let mark = rig.simulator.receivedFrames().count
            rig.simulator.setFault(.delay(.seconds(3)))
            try await waitUntil("a request in flight") { rig.simulator.receivedFrames().count > mark }
            // 25 values, within the 32 messages a topic may have waiting at the bridge.
            for speed in 1...25 { rig.set(#"{"motor_a": {"speed": \#(speed)}}"#) }
            try await rig.client.expectHealthy()
            rig.simulator.setFault(.none)
            do {
                try await rig.waitForFrame("00 00 00 A5 00 01 19 A6 00 01", after: mark)
            } catch {
                Issue.record("\(error); A5 frames: \(rig.frames(opcode: 0xA5, after: mark).map(hex))")
            }
            let sent = rig.frames(opcode: 0xA5, after: mark)
            #expect(sent.count == 1, "\(sent.map(hex))")
            try await rig.waitForState("motor A turning at 25") { $0["motor_a"]?["speed"] == 25 }
            #expect(rig.simulator.motor(.a).speed == 25)
            try await rig.stop()
        }

        @Test("stop jumps a full queue: the next frame after the one in flight, and the motion it cancels never goes out")
        func stopJumpsQueue() async throws {
            let rig = try await EV3Rig.start(replyTimeout: "15s")
            try await rig.waitForState("motors") { $0["motor_b"]?["position"] != nil }
            let events = try await rig.client.watchEvents()
            let mark = rig.simulator.receivedFrames().count
            rig.simulator.setFault(.delay(.seconds(6)))
            try await waitUntil("a request in flight") { rig.simulator.receivedFrames().count > mark }
            let inFlight = rig.simulator.receivedFrames().count
            // 40 LED changes (on two topics, so that neither has more waiting at the bridge than it keeps): 32 fill
            // the link's queue, the rest are refused; motion for A and B waits as well.
            for index in 0..<40 {
                let pattern = ["green", "red", "orange"][index % 3]
                if index.isMultiple(of: 2) { rig.set(#"{"led": "\#(pattern)"}"#) } else { rig.set(pattern, attribute: "led") }
            }
            rig.set(#"{"motor_a": {"speed": 80}, "motor_b": {"power": 50, "time_ms": 5000}}"#)
            try await rig.client.waitForEvent("command_failed", after: events) {
                $0["error"]?.stringValue?.contains("queue is full") == true
            }
            try await rig.client.expectHealthy()
            rig.set(#"{"stop": true}"#)
            try await rig.client.expectHealthy()
            #expect(rig.simulator.receivedFrames().count == inFlight, "a frame left before the stop")
            rig.simulator.setFault(.none)
            try await rig.waitForFrame("00 00 00 A3 00 0F 00", after: inFlight)
            #expect(hex(Array(rig.simulator.receivedFrames()[inFlight][4...])) == "00 00 00 A3 00 0F 00")
            // The queue's 32 places: LED changes, and a poll if one was waiting too.
            try await waitUntil("the queued LED changes through", timeout: .seconds(60)) {
                rig.frames(opcode: 0x82, after: inFlight).count >= 31
            }
            try await rig.client.expectHealthy()
            #expect((31...32).contains(rig.frames(opcode: 0x82, after: inFlight).count))
            #expect(rig.frames(opcode: 0xA5, after: mark).isEmpty && rig.frames(opcode: 0xAD, after: mark).isEmpty)
            #expect(rig.simulator.motor(.a).speed == 0 && rig.simulator.motor(.b).speed == 0)
            try await rig.stop()
        }
    }
}
