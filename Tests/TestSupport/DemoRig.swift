public import EV3Simulator
import Foundation
public import LIFXSimulator

/// The demo of `deploy/demo.sh`, started for a test: a broker, the demo's own BlueZ script
/// (`deploy/demo/bluez.sh`, so its devices and adverts are the demo's), the LIFX cloud and EV3 simulators
/// as `demo.sh` starts them, and the daemon on `deploy/demo/config.yaml` with the variables `demo.sh` sets.
/// The simulators run in the test process, so a test can see what reached them.
public final class DemoRig: Sendable {
    /// The broker, logging subscriptions; the demo's `${MQTT_PORT}` is its port.
    public let broker: Broker
    /// The LIFX cloud with the demo's lights, groups and scene.
    public let lifx: LIFXCloudSimulator
    /// The brick "Robot", found by its beacon.
    public let ev3: EV3BrickSimulator
    /// The daemon on the demo's config.
    public let bridge: BridgeProcess
    /// The port of the daemon's web page (the demo's `${FRONTEND_PORT}`).
    public let frontendPort: Int
    /// The demo's `bluez.sh`, leader of its own process group (its bus daemon and the stand-in are in it).
    let bluez: ChildProcess
    let folder: TemporaryDirectory

    /// The simulator lines of `demo.sh` that `start()` mirrors in process; `demoSimulatorLines()` reads the script's.
    public static let mirroredSimulatorLines = [
        #""$SIM" lifx --port "$LIFX_PORT" --token demo-token &"#,
        #""$SIM" ev3 --wifi-port "$EV3_PORT" --beacon-to "127.0.0.1:$EV3_BEACON_PORT" --name Robot &"#,
    ]

    /// The lines of `deploy/demo.sh` that start a simulator, trimmed.
    public static func demoSimulatorLines() throws -> [String] {
        let script = try String(contentsOfFile: BridgeProcess.packageRoot + "/deploy/demo.sh", encoding: .utf8)
        return script.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix(#""$SIM" "#) }
    }

    /// Starts everything and waits until the bridge has subscribed. The broker logs each SUBSCRIBE (`subscriptions(to:)`).
    /// `homeAssistantLegacy` adds `homeassistant.legacy: true` to the demo's config (the payloads Home Assistant
    /// 2024.1 takes).
    /// `frontendToken` sets `frontend.auth_token`.
    public static func start(homeAssistantLegacy: Bool = false, frontendToken: String? = nil) async throws -> DemoRig {
        let broker = try await Broker.start(logSubscriptions: true)
        let folder = try TemporaryDirectory(prefix: "demo")
        // setsid: the script becomes a process group, so one signal reaches its bus daemon and stand-in too.
        let bluez = try ChildProcess(
            executable: "/usr/bin/setsid", arguments: ["/bin/bash", BridgeProcess.packageRoot + "/deploy/demo/bluez.sh"],
            stdoutPath: folder.file("bluez.out"), stderrPath: folder.file("bluez.err"))
        let address = try await waitForValue("the bus address from deploy/demo/bluez.sh", timeout: .seconds(30)) {
            guard bluez.isRunning else { throw TestFailure("deploy/demo/bluez.sh exited:\n\(bluez.stderr)") }
            return bluez.stdout.split(separator: "\n").first.map(String.init)
        }
        let lifx = LIFXCloudSimulator.demo(token: "demo-token")
        let lifxPort = try await lifx.start(host: "127.0.0.1", port: 0)
        var setup = EV3SimulatorSetup()
        setup.name = "Robot"
        let ev3 = EV3BrickSimulator(setup: setup)
        let beaconPort = try LocalPorts.freeUDP()
        try ev3.startBeacon(to: "127.0.0.1", port: beaconPort, tcpPort: try ev3.startWiFi(port: 0))
        var config = try String(contentsOfFile: BridgeProcess.packageRoot + "/deploy/demo/config.yaml", encoding: .utf8)
        if homeAssistantLegacy {
            guard config.contains("homeassistant:\n  enabled: true\n") else { throw TestFailure("the demo config has no homeassistant section") }
            config = config.replacingOccurrences(of: "homeassistant:\n  enabled: true\n", with: "homeassistant:\n  enabled: true\n  legacy: true\n")
        }
        if let frontendToken {
            let section = "frontend:\n  enabled: true\n"
            guard config.contains(section) else { throw TestFailure("the demo config has no frontend section") }
            config = config.replacingOccurrences(of: section, with: section + "  auth_token: \(frontendToken)\n")
        }
        let frontendPort = try LocalPorts.free()
        let bridge = try BridgeProcess.start(
            config: config,
            environment: [
                "MQTT_PORT": String(broker.port), "LIFX_TOKEN": "demo-token", "LIFX_API_URL": "http://127.0.0.1:\(lifxPort)/v1",
                "EV3_BEACON_PORT": String(beaconPort), "DBUS_SYSTEM_BUS_ADDRESS": address,
                "FRONTEND_PORT": String(frontendPort),
            ])
        let rig = DemoRig(
            broker: broker, lifx: lifx, ev3: ev3, bridge: bridge, frontendPort: frontendPort, bluez: bluez, folder: folder)
        try await bridge.waitUntilReady(on: broker, base: "things2mqtt", timeout: .seconds(30))
        return rig
    }

    private init(
        broker: Broker, lifx: LIFXCloudSimulator, ev3: EV3BrickSimulator, bridge: BridgeProcess, frontendPort: Int,
        bluez: ChildProcess, folder: TemporaryDirectory
    ) {
        self.broker = broker
        self.lifx = lifx
        self.ev3 = ev3
        self.bridge = bridge
        self.frontendPort = frontendPort
        self.bluez = bluez
        self.folder = folder
    }

    deinit {
        if bluez.isRunning { kill(-bluez.pid, SIGKILL) }
        ev3.stop()
        folder.remove()
    }

    /// How many times the broker has logged a SUBSCRIBE to exactly `filter` at QoS 0 (as `mosquitto_sub` sends it).
    public func subscriptions(to filter: String) -> Int {
        broker.log.components(separatedBy: " 0 \(filter)").count - 1
    }

    /// Stops the daemon (returning its exit status), the BlueZ script and the simulators.
    @discardableResult
    public func stop() async throws -> Int32 {
        let status = try await bridge.terminate()
        kill(-bluez.pid, SIGTERM)
        try await bluez.waitForExit(timeout: .seconds(10))
        ev3.stop()
        try await lifx.stop()
        return status
    }
}
