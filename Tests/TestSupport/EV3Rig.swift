public import BridgeCore
import EV3Protocol
public import EV3Simulator
import Foundation

/// A broker, a simulated EV3 brick and the daemon reaching it: what every EV3 test through the daemon starts
/// with. The brick runs in the test process, so a test can look at every frame it got and make it misbehave.
public struct EV3Rig: Sendable {
    /// How the daemon reaches the simulated brick.
    public enum Path: Sendable {
        /// Configured by host: TCP on a free port, unlock, frames.
        case wifi
        /// Found by its beacon, sent to a free UDP port the daemon listens on, inside a permit window (`ev3/permit`).
        case beacon
        /// A pseudo-terminal configured as the brick's Bluetooth serial line.
        case pty
    }

    public let broker: Broker
    public let simulator: EV3BrickSimulator
    public let bridge: BridgeProcess
    public let client: TestClient
    /// The brick's device id, from the simulator's serial number.
    public let id: String
    /// The UDP port the daemon listens for beacons on (`.beacon` only).
    public let beaconPort: Int?

    /// Starts the brick, a broker and the daemon (`poll_interval` 200ms; replies get `replyTimeout`, long by
    /// default so that a starved test process cannot turn a slow reply into a lost connection), and waits
    /// until the brick is `ready`. `ev3` lines are added to the `ev3:` section, `brick` lines to its entry.
    public static func start(
        _ setup: EV3SimulatorSetup = EV3SimulatorSetup(), path: Path = .wifi, replyTimeout: String = "5s",
        ev3: String = "", brick: String = "", legacy: Bool = false, waitForReady: Bool = true
    ) async throws -> EV3Rig {
        let broker = try await Broker.start()
        let simulator = EV3BrickSimulator(setup: setup)
        var section = "ev3:\n  enabled: true\n  poll_interval: 200ms\n  reply_timeout: \(replyTimeout)\n" + ev3
        var beaconPort: Int?
        switch path {
        case .wifi:
            let port = try simulator.startWiFi(port: 0)
            section += "  discovery: {wifi: false, usb: false}\n  bricks:\n    - wifi: 127.0.0.1:\(port)\n" + brick
        case .beacon:
            let port = try simulator.startWiFi(port: 0)
            let udp = try LocalPorts.freeUDP()
            beaconPort = udp
            try simulator.startBeacon(to: "127.0.0.1", port: udp, tcpPort: port, every: .milliseconds(300))
            section += "  discovery: {wifi: true, beacon_port: \(udp), usb: false}\n"
        case .pty:
            let tty = try simulator.startPTY()
            section += "  discovery: {wifi: false, usb: false}\n  bricks:\n    - serial: \(tty)\n" + brick
        }
        let config = TestConfig.yaml(port: broker.port, legacy: legacy, extra: section)
        let bridge = try BridgeProcess.start(config: config)
        try await bridge.waitUntilReady(on: broker)
        let client = try await TestClient.connect(to: broker)
        // One client follows everything the tests look at, instead of a new connection for each look.
        let node = "t2m_ev3_" + setup.serialNumber
        for filter in ["t2m/ev3_\(setup.serialNumber)", "t2m/ev3_\(setup.serialNumber)/availability", "homeassistant/+/\(node)/+/config"] {
            try await client.subscribe(filter)
        }
        // A brick that is not configured is connected from its beacon only while a permit window is open.
        if case .beacon = path { _ = try await client.request("ev3/permit", #"{"time": 600}"#) }
        let rig = EV3Rig(
            broker: broker, simulator: simulator, bridge: bridge, client: client, id: "ev3_" + setup.serialNumber,
            beaconPort: beaconPort)
        if waitForReady { try await rig.waitForStatus("ready") }
        return rig
    }

    /// The brick's state topic.
    public var stateTopic: String { "t2m/\(id)" }

    /// Waits for the brick's state, as last published, to satisfy `predicate`, and returns it.
    @discardableResult
    public func waitForState(
        _ what: String, timeout: Duration = .seconds(30), _ predicate: @escaping @Sendable (JSONValue) -> Bool
    ) async throws -> JSONValue {
        do {
            return try await waitForValue(what, timeout: timeout) { latest(stateTopic).flatMap { predicate($0) ? Optional($0) : nil } }
        } catch {
            throw TestFailure("\(error); last state: \(latest(stateTopic)?.jsonString ?? "nothing")")
        }
    }

    /// Waits for the device's `status`.
    public func waitForStatus(_ status: String, timeout: Duration = .seconds(30)) async throws {
        try await waitForState("status \(status)", timeout: timeout) { $0["status"]?.stringValue == status }
    }

    /// Waits for the brick's availability topic to say `state`.
    public func waitForAvailability(_ state: String, timeout: Duration = .seconds(30)) async throws {
        try await waitUntil("availability \(state)", timeout: timeout) {
            latest(stateTopic + "/availability")?["state"]?.stringValue == state
        }
    }

    /// The last payload published on `topic`, as JSON; nil when none came or the last one cleared it.
    public func latest(_ topic: String) -> JSONValue? {
        guard let message = client.messages(on: topic).last, !message.payload.isEmpty else { return nil }
        return message.json
    }

    /// The brick's Home Assistant configs as last published (cleared ones left out), by object id.
    public func entities() -> [String: JSONValue] {
        var configs: [String: JSONValue] = [:]
        for message in client.messages(on: "homeassistant/+/t2m_\(id)/+/config") {
            let objectID = String(message.topic.split(separator: "/")[3])
            configs[objectID] = message.payload.isEmpty ? nil : message.json
        }
        return configs
    }

    /// Publishes a `/set` (or `/set/<attribute>`) payload.
    public func set(_ payload: String, attribute: String? = nil) {
        client.publish("\(stateTopic)/set" + (attribute.map { "/" + $0 } ?? ""), payload)
    }

    /// Every frame after the first `after` whose bytecode (past the 7-byte header) starts with `opcode`.
    public func frames(opcode: UInt8, after: Int = 0) -> [[UInt8]] {
        simulator.receivedFrames().dropFirst(after).filter { $0.count > 7 && $0[7] == opcode }
    }

    /// Waits for a frame after the first `after` that is `expected` from its type byte on (counter aside).
    @discardableResult
    public func waitForFrame(_ expected: String, after: Int = 0, timeout: Duration = .seconds(30)) async throws -> [UInt8] {
        let bytes = hex(expected)
        return try await waitForValue("a frame \(expected)", timeout: timeout) {
            simulator.receivedFrames().dropFirst(after).first { $0.count > 4 && Array($0[4...]) == bytes }
        }
    }

    /// Stops the daemon (SIGTERM), the brick and the client; returns the daemon's exit status.
    @discardableResult
    public func stop() async throws -> Int32 {
        let status = try await bridge.terminate()
        await client.close()
        simulator.stop()
        return status
    }
}
