import ArgumentParser
import EV3Protocol
import EV3Simulator
import Foundation
import Logging

/// `things2mqtt-sim ev3`: a LEGO EV3 brick on this machine, speaking the direct-command protocol.
struct SimulateEV3: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ev3",
        abstract: "Simulate an EV3 brick on stock firmware: WiFi beacon and TCP, optionally a pty as its Bluetooth serial side.")

    @Option(help: "TCP port of the brick's WiFi side (0 picks a free one).")
    var wifiPort = 5555

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Where the UDP beacon goes, host:port ('none' for no beacon).")
    var beaconTo = "127.0.0.1:3015"

    @Option(help: "Seconds between beacons (the brick sends one every 5).")
    var beaconInterval = 5.0

    @Flag(help: "Also serve the brick on a pseudo-terminal, as a bound /dev/rfcommN would; its path is printed.")
    var pty = false

    @Option(help: "The brick's name (up to 12 characters).")
    var name = "EV3"

    @Option(help: "The brick's serial number (its Bluetooth address, 12 hex digits).")
    var serial = "0016533f0c1e"

    @Option(help: "A sensor on a port, e.g. --sensor 1=touch (touch, color, ultrasonic, gyro, ir, none). Repeatable.")
    var sensor: [String] = []

    @Option(help: "A motor on a port, e.g. --motor D=medium (large, medium, none). Repeatable.")
    var motor: [String] = []

    @Flag(help: "Log every frame received and every reply sent, in hex.")
    var printFrames = false

    func validate() throws {
        guard (0...65535).contains(wifiPort) else { throw ValidationError("--wifi-port must be 0…65535") }
        guard serial.count == 12, serial.allSatisfy(\.isHexDigit) else { throw ValidationError("--serial needs 12 hex digits") }
        guard !name.isEmpty, name.utf8.count <= 12 else { throw ValidationError("--name needs 1 to 12 characters") }
        _ = try setup()
        if beaconTo != "none", Self.hostAndPort(beaconTo) == nil { throw ValidationError("--beacon-to needs host:port") }
    }

    func run() async throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let simulator = EV3BrickSimulator(setup: try setup())
        simulator.setPrintFrames(printFrames)
        let port = try simulator.startWiFi(host: host, port: wifiPort)
        var lines = ["EV3 brick simulator \"\(name)\" (serial \(serial.lowercased())) on WiFi \(host):\(port)"]
        if let (beaconHost, beaconPort) = Self.hostAndPort(beaconTo) {
            try simulator.startBeacon(to: beaconHost, port: beaconPort, tcpPort: port, every: .milliseconds(Int(beaconInterval * 1000)))
            lines.append("beacon to \(beaconHost):\(beaconPort) every \(beaconInterval) s")
        }
        if pty { lines.append("Bluetooth serial side on \(try simulator.startPTY())") }
        FileHandle.standardOutput.write(Data((lines.joined(separator: ", ") + "\n").utf8))
        while !Task.isCancelled {
            try await Task.sleep(for: .seconds(3600))
        }
    }

    private func setup() throws -> EV3SimulatorSetup {
        var setup = EV3SimulatorSetup()
        setup.name = name
        setup.serialNumber = serial.lowercased()
        let sensors: [String: EV3DeviceType] = [
            "touch": .touch, "color": .color, "colour": .color, "ultrasonic": .ultrasonic, "gyro": .gyro, "ir": .infrared,
            "infrared": .infrared, "none": .noDevice,
        ]
        for item in sensor {
            let parts = item.split(separator: "=").map(String.init)
            guard parts.count == 2, let port = Int(parts[0]), (1...4).contains(port), let type = sensors[parts[1].lowercased()] else {
                throw ValidationError("--sensor \(item): write PORT=TYPE, port 1–4, type one of \(sensors.keys.sorted().joined(separator: ", "))")
            }
            setup.sensors[port - 1] = type
        }
        let motors: [String: EV3DeviceType] = ["large": .largeMotor, "medium": .mediumMotor, "none": .noDevice]
        for item in motor {
            let parts = item.split(separator: "=").map(String.init)
            guard parts.count == 2, let letter = parts[0].uppercased().first, let index = "ABCD".firstIndex(of: letter),
                parts[0].count == 1, let type = motors[parts[1].lowercased()]
            else {
                throw ValidationError("--motor \(item): write PORT=TYPE, port A–D, type large, medium or none")
            }
            setup.motors["ABCD".distance(from: "ABCD".startIndex, to: index)] = type
        }
        return setup
    }

    private static func hostAndPort(_ text: String) -> (String, Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else {
            return nil
        }
        return (String(text[..<colon]), port)
    }
}
