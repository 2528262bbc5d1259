import TestSupport
import EV3Driver
import BridgeConfig
import EV3Protocol
import Testing

@Suite("The ev3 config section")
struct EV3ConfigTests {
    static let example = """
        ev3:
          enabled: true
          discovery: {wifi: false, beacon_port: 3016, usb: true}
          poll_interval: 250ms
          bricks:
            - wifi: 192.168.1.50
              serial_number: 0016533F0C1E
              ports: {1: touch, 2: color, "3": distance}
            - wifi: "ev3.local:6000"
            - wifi: "[fe80::1]:5555"
            - bluetooth: 00-16-53-aa-bb-cc
            - serial: /dev/rfcomm0
            - usb: /dev/hidraw3
              ports: {4: angle}

        """

    @Test("a full section decodes with normalised addresses and serial numbers")
    func decodes() throws {
        let ev3 = try ConfigLoader.parse(yaml: Self.example, file: "ev3.yaml").ev3
        #expect(ev3.enabled)
        #expect(ev3.discovery == { var d = EV3DiscoverySettings(); d.wifi = false; d.beaconPort = 3016; return d }())
        #expect(ev3.pollInterval == ConfigDuration(milliseconds: 250))
        #expect(ev3.bricks.map(\.connection) == [
            .wifi(host: "192.168.1.50", port: 5555), .wifi(host: "ev3.local", port: 6000), .wifi(host: "fe80::1", port: 5555),
            .bluetooth(address: "00:16:53:AA:BB:CC"), .serial(path: "/dev/rfcomm0"), .usb(path: "/dev/hidraw3"),
        ])
        #expect(ev3.bricks[0].serialNumber == "0016533f0c1e")
        #expect(ev3.bricks[0].ports == [1: .touch, 2: .color, 3: .distance])
        #expect(ev3.bricks[5].ports == [4: .angle])
        #expect(ev3.bricks[1].serialNumber == nil && ev3.bricks[1].ports.isEmpty)
    }

    @Test("the defaults: disabled, WiFi and USB discovery on port 3015, a poll every 500ms, no bricks")
    func defaults() throws {
        let ev3 = try ConfigLoader.parse(yaml: "ev3:\n  enabled: true\n", file: "ev3.yaml").ev3
        #expect(ev3.enabled && ev3.bricks.isEmpty)
        #expect(ev3.discovery.wifi && ev3.discovery.usb && ev3.discovery.beaconPort == 3015)
        #expect(ev3.pollInterval == ConfigDuration(milliseconds: 500))
        #expect(ev3.replyTimeout == nil)
        #expect(!EV3Settings().enabled)
        let slow = try ConfigLoader.parse(yaml: "ev3:\n  reply_timeout: 3s\n", file: "ev3.yaml").ev3
        #expect(slow.replyTimeout == .seconds(3))
    }

    @Test(
        "every bad value is reported with its line, column and key path",
        arguments: [
            ("    - wifi: \"host:99999\"\n", 3, 13, "ev3.bricks[0].wifi", "is not host or host:port"),
            ("    - wifi: \"a b\"\n", 3, 13, "ev3.bricks[0].wifi", "is not host or host:port"),
            ("    - bluetooth: 00:16:53\n", 3, 18, "ev3.bricks[0].bluetooth", "is not six octets"),
            ("    - serial: rfcomm0\n", 3, 15, "ev3.bricks[0].serial", "is not an absolute device path"),
            ("    - usb: hidraw0\n", 3, 12, "ev3.bricks[0].usb", "(e.g. /dev/hidraw0)"),
            ("    - serial_number: 0016533f0c1e\n", 3, 7, "ev3.bricks[0]", "needs one of wifi"),
            ("    - wifi: ev3\n      usb: /dev/hidraw0\n", 4, 12, "ev3.bricks[0].usb", "not wifi and usb"),
            ("    - wifi: ev3\n      serial_number: xyz\n", 4, 22, "ev3.bricks[0].serial_number", "12 hex digits"),
            ("    - wifi: ev3\n      ports: {5: touch}\n", 4, 15, "ev3.bricks[0].ports.5", "is not a sensor port (1 to 4)"),
            ("    - wifi: ev3\n      ports: {2: colour}\n", 4, 18, "ev3.bricks[0].ports.2", "\"colour\" is not a sensor mode"),
            ("    - wifi: ev3\n      speed: 3\n", 4, 7, "ev3.bricks[0].speed", "unknown key"),
            ("    - wifi: ev3\n    - wifi: \"ev3:5555\"\n", 4, 13, "ev3.bricks[1].wifi", "the same brick as bricks[0]"),
            (
                "    - {wifi: a, serial_number: 0016533f0c1e}\n    - {usb: /dev/hidraw0, serial_number: 00:16:53:3f:0c:1e}\n",
                4, 42, "ev3.bricks[1].serial_number", "already the serial number of bricks[0]"
            ),
        ])
    func errors(entry: String, line: Int, column: Int, keyPath: String, message: String) {
        expectOneIssue("ev3:\n  bricks:\n" + entry, file: "ev3.yaml", line: line, column: column, keyPath: keyPath, message: message)
    }

    @Test(
        "section-level values are checked where they are written",
        arguments: [
            ("ev3:\n  poll_interval: 20ms\n", "ev3.yaml:2:18: ev3.poll_interval: must be at least 100ms"),
            ("ev3:\n  reply_timeout: 50ms\n", "ev3.yaml:2:18: ev3.reply_timeout: must be 100ms to 30s"),
            ("ev3:\n  reply_timeout: 1m\n", "ev3.yaml:2:18: ev3.reply_timeout: must be 100ms to 30s"),
            ("ev3:\n  reply_timeout: soon\n", "ev3.yaml:2:18: ev3.reply_timeout: "),
            ("ev3:\n  discovery: {beacon_port: 0}\n", "ev3.yaml:2:28: ev3.discovery.beacon_port: must be a UDP port"),
            ("ev3:\n  discovery: {bluetooth: true}\n", "ev3.yaml:2:15: ev3.discovery.bluetooth: unknown key"),
            ("ev3:\n  bricks: {wifi: ev3}\n", "ev3.yaml:2:11: ev3.bricks: "),
        ])
    func sectionErrors(yaml: String, expected: String) {
        do {
            _ = try ConfigLoader.parse(yaml: yaml, file: "ev3.yaml")
            Issue.record("accepted")
        } catch {
            #expect(error.description.hasPrefix(expected), "\(error)")
        }
    }

    @Test("mode names map to one device and mode number each")
    func modes() {
        #expect(EV3SensorMode.color.device == .color && EV3SensorMode.color.number == 2)
        #expect(EV3SensorMode(device: .gyro, number: 1) == .rate)
        #expect(EV3SensorMode(device: .touch, number: 5) == nil)
        #expect(EV3SensorMode.modes(of: .infrared) == [.proximity, .seek, .remote])
        #expect(Set(EV3SensorMode.allCases.map { "\($0.device.rawValue)/\($0.number)" }).count == EV3SensorMode.allCases.count)
    }
}
