import BridgeCore
import Foundation
import Testing
import TestSupport

extension EV3DaemonTests {
    @Suite("EV3 config errors through the binary", .tags(.process), .timeLimit(.minutes(2)))
    struct EV3ConfigProcessTests {
        static let bad = """
            ev3:
              enabled: true
              poll_interval: 10ms
              reply_timeout: 2m
              discovery: {beacon_port: 70000}
              bricks:
                - wifi: "ev3:99999"
                - bluetooth: 00:16:53
                - {wifi: robot, usb: /dev/hidraw0}
                - serial: /dev/rfcomm0
                  serial_number: nope
                  ports: {2: colour, 7: touch}

            """

        @Test("check-config names every EV3 problem with line, column and key path, and exits 1")
        func checkConfig() async throws {
            let folder = try TemporaryDirectory(prefix: "ev3-check")
            defer { folder.remove() }
            let path = try folder.write("ev3.yaml", Self.bad)
            let result = try await BridgeProcess.runCommand(["check-config", "--config", path])
            #expect(result.status == 1)
            let output = result.stdout + result.stderr
            for expected in [
                "\(path):3:18: ev3.poll_interval: must be at least 100ms",
                "\(path):4:18: ev3.reply_timeout: must be 100ms to 30s",
                "\(path):5:28: ev3.discovery.beacon_port: must be a UDP port",
                "\(path):7:13: ev3.bricks[0].wifi:",
                "\(path):8:18: ev3.bricks[1].bluetooth:",
                "\(path):9:26: ev3.bricks[2].usb: give one of wifi, bluetooth, serial and usb, not wifi and usb",
                "\(path):11:22: ev3.bricks[3].serial_number:",
                "\(path):12:18: ev3.bricks[3].ports.2: \"colour\" is not a sensor mode",
                "\(path):12:26: ev3.bricks[3].ports.7: \"7\" is not a sensor port",
            ] {
                #expect(output.contains(expected), "missing \(expected) in:\n\(output)")
            }
        }

        @Test("the daemon refuses to start on such a config, with the same messages", .needs(.broker))
        func daemonRefuses() async throws {
            let broker = try await Broker.start()
            let config = TestConfig.yaml(port: broker.port, extra: "ev3:\n  enabled: true\n  reply_timeout: 5ms\n")
            let bridge = try BridgeProcess.start(config: config)
            let status = try await bridge.child.waitForExit(timeout: .seconds(30))
            #expect(status != 0)
            #expect(bridge.stderr.contains("ev3.reply_timeout: must be 100ms to 30s"), "\(bridge.stderr)")
        }
    }
}
