import BridgeCore
import EV3Protocol
import EV3Simulator
import Foundation
import Testing
import TestSupport

extension EV3DaemonTests {
    @Suite("EV3 bricks through the daemon: ports, polls and discovery", .tags(.integration, .process), .timeLimit(.minutes(3)), .needs(.broker))
    struct EV3DeviceTests {
        @Test("a brick over WiFi: identity and versions, every port detected and polled, buttons, battery")
        func wifi() async throws {
            let rig = try await EV3Rig.start()
            let state = try await rig.waitForState("every port read") {
                $0["port_4"]?["angle"] != nil && $0["motor_c"]?["position"] != nil && $0["port_2"]?["reflected"] != nil
            }
            #expect(state["battery"] == 87 && state["voltage"] == 7.85 && state["current"] == 0.18)
            #expect(state["name"] == "EV3")
            #expect(state["motor_a"] == ["type": "large", "speed": 0, "position": 0])
            #expect(state["motor_c"]?["type"] == "medium" && state["motor_d"] == nil)
            #expect(state["port_1"] == ["type": "touch", "mode": "touch", "pressed": "OFF"])
            #expect(state["port_2"] == ["type": "color", "mode": "reflected", "reflected": 42])
            #expect(state["port_3"] == ["type": "ultrasonic", "mode": "distance", "distance": 25.5])
            #expect(state["buttons"]?["enter"] == "OFF")

            // bridge/devices is rebuilt shortly after changes: wait for the brick's entry to be complete.
            let devices = try await rig.broker.waitForRetained("t2m/bridge/devices") { [id = rig.id] in
                $0.json?.entries(where: "id", is: .string(id))?["device_status"] == "ready"
            }
            let brick = try #require(devices.json?.entries(where: "id", is: .string(rig.id)))
            #expect(brick["label"] == "EV3" && brick["model"] == "EV3" && brick["manufacturer"] == "LEGO")
            #expect(brick["firmware"] == "V1.10E" && brick["hardware"] == "V0.60" && brick["device_status"] == "ready")
            #expect(brick["details"]?["firmware_build"] == "1803" && brick["details"]?["transport"] == "wifi")

            // The brick's own inputs are read at each poll.
            rig.simulator.setButton(.enter, pressed: true)
            rig.simulator.setSensorValues(port: 1, mode: 0, [1])
            rig.simulator.setSensorValues(port: 3, mode: 0, [112.34])
            try await rig.waitForState("button, touch and distance") {
                $0["buttons"]?["enter"] == "ON" && $0["port_1"]?["pressed"] == "ON" && $0["port_3"]?["distance"] == 112.3
            }
            // One direct command per poll, with every group in it.
            let polls = rig.frames(opcode: 0x81).suffix(3)
            #expect(
                polls.allSatisfy { hex($0).components(separatedBy: "99 05 00").count - 1 == 8 }, "\(polls.map(hex))")
            // SIGTERM ends the daemon cleanly with a brick connected; the brick goes offline with the bridge.
            #expect(try await rig.stop() == 0)
        }

        @Test("plugs, unplugs and a device changed on the brick are followed, in the state and in Home Assistant")
        func plugs() async throws {
            let rig = try await EV3Rig.start()
            try await rig.waitForState("port 4") { $0["port_4"]?["angle"] != nil }
            try await waitUntil("the first entities") {
                Set(rig.entities().keys).isSuperset(of: ["port_4_angle", "port_4_mode", "motor_c_speed", "motor_c_stop"])
            }

            rig.simulator.plug(.infrared, intoSensorPort: 4)
            rig.simulator.plug(.noDevice, intoMotorPort: .c)
            rig.simulator.plug(.mediumMotor, intoMotorPort: .d)
            let state = try await rig.waitForState("infrared on 4, no motor C, a motor on D") {
                $0["port_4"]?["proximity"] == 50 && $0["motor_c"] == nil && $0["motor_d"]?["position"] != nil
            }
            #expect(state["port_4"] == ["type": "infrared", "mode": "proximity", "proximity": 50])
            try await waitUntil("entities to follow the ports", timeout: .seconds(30)) {
                let entities = Set(rig.entities().keys)
                return entities.contains("port_4_proximity") && !entities.contains("port_4_angle")
                    && !entities.contains("motor_c_speed") && entities.contains("motor_d_speed")
            }
            rig.simulator.plug(.noDevice, intoSensorPort: 4)
            try await rig.waitForState("port 4 empty") { $0["port_4"] == nil }
            try await rig.stop()
        }

        @Test("a port whose reads fail is polled on its own; the other ports and the brick keep their values coming")
        func oddPort() async throws {
            let rig = try await EV3Rig.start()
            try await rig.waitForState("port 3") { $0["port_3"]?["distance"] == 25.5 }
            rig.simulator.setReadsFail(sensorPort: 3, true)
            rig.simulator.setSensorValues(port: 3, mode: 0, [99])
            let mark = rig.simulator.receivedFrames().count
            // Once port 3 is isolated, every cycle sends it alone and everything else together.
            try await waitUntil("port 3 polled on its own", timeout: .seconds(30)) {
                rig.frames(opcode: 0x99, after: mark).contains { Array($0[7...]).starts(with: [0x99, 0x05, 0x00, 0x02]) }
            }
            rig.simulator.setSensorValues(port: 1, mode: 0, [1])
            rig.simulator.setButton(.up, pressed: true)
            let state = try await rig.waitForState("port 1 and buttons still polled") {
                $0["port_1"]?["pressed"] == "ON" && $0["buttons"]?["up"] == "ON"
            }
            #expect(state["port_3"]?["distance"] == 25.5)
            #expect(state["battery"] == 87)

            rig.simulator.setReadsFail(sensorPort: 3, false)
            try await rig.waitForState("port 3 read again") { $0["port_3"]?["distance"] == 99 }
            try await rig.stop()
        }

        @Test("over a pseudo-terminal standing in for /dev/rfcommN: ports polled and a command carried out")
        func pty() async throws {
            var setup = EV3SimulatorSetup()
            setup.name = "Bluey"
            let rig = try await EV3Rig.start(setup, path: .pty)
            let state = try await rig.waitForState("ports") { $0["port_2"]?["reflected"] == 42 && $0["name"] == "Bluey" }
            #expect(state["motor_b"]?["type"] == "large")
            let mark = rig.simulator.receivedFrames().count
            rig.set(#"{"motor_b": {"power": -40, "time_ms": 300}}"#)
            try await rig.waitForFrame("00 00 00 AD 00 02 81 D8 00 82 2C 01 00 01", after: mark)
            try await rig.broker.waitForRetained("t2m/bridge/devices") { [id = rig.id] in
                $0.json?.entries(where: "id", is: .string(id))?["details"]?["transport"] == "bluetooth"
            }
            try await rig.stop()
        }

        @Test("a brick found by its WiFi beacon appears under the serial number the beacon gave, and the beacon is answered")
        func beacon() async throws {
            var setup = EV3SimulatorSetup()
            setup.serialNumber = "00165340abcd"
            let rig = try await EV3Rig.start(setup, path: .beacon)
            #expect(rig.id == "ev3_00165340abcd")
            try await rig.waitForState("ports") { $0["port_1"]?["pressed"] == "OFF" }
            try await waitUntil("a beacon answer") { rig.simulator.beaconAnswers > 0 }
            // Beacons keep coming; the brick is reached once.
            try await Task.sleep(for: .seconds(1))
            let devices = try #require(try await rig.broker.retainedJSON("t2m/bridge/devices"))
            #expect(devices.arrayCount == 1)
            try await rig.stop()
        }

        @Test("a brick found by its beacon, switched off and back on at another address, is reached there")
        func moved() async throws {
            let rig = try await EV3Rig.start(path: .beacon)
            let beaconPort = try #require(rig.beaconPort)
            rig.simulator.setPoweredOff(true)
            try await rig.waitForStatus("unavailable")
            // The same brick (same serial number) back with a new address: here, a new TCP port.
            let again = EV3BrickSimulator()
            defer { again.stop() }
            let port = try again.startWiFi(port: 0)
            try again.startBeacon(to: "127.0.0.1", port: beaconPort, tcpPort: port, every: .milliseconds(300))
            try await rig.waitForStatus("ready")
            let endpoint = JSONValue.string("wifi 127.0.0.1:\(port)")
            let devices = try await rig.broker.waitForRetained("t2m/bridge/devices") { [id = rig.id] in
                $0.json?.entries(where: "id", is: .string(id))?["details"]?["endpoint"] == endpoint
            }
            #expect(devices.json?.arrayCount == 1)
            let mark = again.receivedFrames().count
            rig.set(#"{"led": "red"}"#)
            try await waitUntil("the LED command at the new address") {
                again.receivedFrames().dropFirst(mark).contains { Array($0.dropFirst(4)) == hex("00 00 00 82 1B 02") }
            }
            try await rig.stop()
        }
    }
}
