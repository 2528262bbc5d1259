import BridgeConfig
public import BridgeCore
import EV3Link
import EV3Protocol
public import Logging
public import Support

/// Where the EV3 driver looks for bricks and how patiently it waits for them; the defaults are the product's,
/// tests point them at their own folders and ports.
public struct EV3DriverOptions: Sendable {
    /// The address the beacon listener binds (every interface, so that broadcasts are heard).
    public var beaconHost = "0.0.0.0"
    /// Where sysfs is, for the USB scan.
    public var sysfs = "/sys"
    /// Where the device files the scan names are.
    public var dev = "/dev"
    /// How often USB is scanned for bricks plugged in.
    public var usbScanInterval: Duration = .seconds(10)
    /// Reconnects of a lost brick: after 1 s, doubling up to 30 s.
    public var backoff = Backoff(initial: .seconds(1), maximum: .seconds(30))
    /// How long after start every brick has been found that is there (a beacon comes every 5 s), so that
    /// stale Home Assistant entities may be cleared.
    public var inventoryDelay: Duration = .seconds(7)

    /// The product's defaults.
    public init() {}
}

/// LEGO EV3 bricks on stock firmware: configured ones, and those found by their WiFi beacon or on USB. Each
/// brick is a `BrickController`, whose device is `ev3_<serial>`.
public actor EV3Driver: DeviceDriver, ConnectionControl {
    /// This driver serves `ev3`.
    public nonisolated let integration = Integration.ev3

    let settings: EV3Settings
    let options: EV3DriverOptions
    let sink: DeviceEventSink
    let logger: Logger
    /// Every brick, by endpoint (`wifi 192.168.1.5:5555`).
    var controllers: [String: BrickController] = [:]
    /// The controller speaking for each device.
    var owners: [DeviceID: BrickController] = [:]
    var remembered: Set<DeviceID> = []
    /// The endpoints of the config's bricks, which discovery never replaces.
    var configuredEndpoints: Set<String> = []
    /// Which bricks a beacon may bring in: configured ones, others only in the permit window.
    var beacons: BeaconAdmission

    /// Creates the driver; `configured` are the EV3 ids listed under `devices:`. Nothing is opened until `run()`.
    public init(
        settings: EV3Settings, options: EV3DriverOptions = EV3DriverOptions(), configured: Set<DeviceID> = [],
        sink: DeviceEventSink, logger: Logger
    ) {
        self.settings = settings
        self.options = options
        self.sink = sink
        self.logger = logger
        let bricks = settings.bricks.compactMap(\.serialNumber).map(DeviceID.ev3(serial:))
        beacons = BeaconAdmission(configured: configured.filter { $0.integration == .ev3 }.union(bricks))
    }

    /// Runs the configured bricks, and the discovery of others, until cancelled.
    public func run() async throws {
        sink.send(.integrationStatus(.ev3, IntegrationStatus(.running)))
        let (found, foundSink) = AsyncStream.makeStream(of: EV3Endpoint.self)
        await withTaskGroup(of: Void.self) { group in
            for brick in settings.bricks {
                guard let controller = configured(brick) else { continue }
                group.addTask { await controller.run() }
            }
            if settings.discovery.wifi { group.addTask { await self.listenForBeacons(foundSink) } }
            if settings.discovery.usb { group.addTask { await self.scanUSB(foundSink) } }
            group.addTask { [sink, delay = options.inventoryDelay] in
                guard (try? await Task.sleep(for: delay)) != nil else { return }
                sink.send(.inventoryComplete(.ev3))
            }
            for await endpoint in found {
                guard let controller = await adopt(endpoint) else { continue }
                group.addTask { await controller.run() }
            }
            group.cancelAll()
        }
    }

    /// Sends a command to the brick; refused when no connected brick is that device.
    public func perform(_ command: DeviceCommand, on device: DeviceID) async throws(CommandError) {
        guard let controller = owners[device] else { throw CommandError("\(device) is not connected") }
        switch command {
        case .set(let set): try await controller.perform(set)
        case .refresh: await controller.refresh()
        }
    }

    /// `ev3/permit`; bricks are otherwise driven through `<alias>/set` and `device/connect|disconnect`.
    public func handleRequest(_ name: String, payload: [String: JSONValue]) async throws(CommandError) -> JSONValue {
        guard name == "permit" else {
            throw CommandError("unknown request ev3/\(name) (known: permit); bricks are driven through <alias>/set and device/connect|disconnect")
        }
        return try permit(payload)
    }

    /// The bridge forgot a brick; it is announced again at once while it stays connected.
    public func forget(_ device: DeviceID) async {
        await owners[device]?.forget()
    }

    /// `device/connect`: connects a brick held down, or waits for the next attempt of one being reconnected.
    public func connect(_ device: DeviceID) async throws(CommandError) {
        guard let controller = owners[device] else { throw CommandError("no EV3 brick \(device) is known") }
        try await controller.connect()
    }

    /// `device/disconnect`: closes the connection and keeps it down until `device/connect` or a restart.
    public func disconnect(_ device: DeviceID) async throws(CommandError) {
        guard let controller = owners[device] else { throw CommandError("no EV3 brick \(device) is known") }
        await controller.disconnect()
    }

    /// Remembered bricks are kept in the bridge's set; a brick is reached by its address, so nothing changes here.
    public func setRemembered(_ device: DeviceID, _ isRemembered: Bool) async {
        if isRemembered { remembered.insert(device) } else { remembered.remove(device) }
    }

    /// Lets `controller` speak for `device` unless another controller does.
    func claim(_ device: DeviceID, by controller: BrickController) -> Bool {
        if let owner = owners[device], owner !== controller { return false }
        owners[device] = controller
        return true
    }

    /// A controller for a brick of the config.
    private func configured(_ brick: EV3BrickSettings) -> BrickController? {
        let endpoint: EV3Endpoint
        switch brick.connection {
        case .wifi(let host, let port): endpoint = .wifi(host: host, port: port, serial: brick.serialNumber)
        case .bluetooth(let address):
            guard let parsed = try? BluetoothAddress(address) else { return nil }
            endpoint = .bluetooth(parsed)
        case .serial(let path): endpoint = .serial(path: path, serial: brick.serialNumber)
        case .usb(let path): endpoint = .usb(path: path, serial: brick.serialNumber)
        }
        configuredEndpoints.insert(endpoint.description)
        return makeController(endpoint, serial: brick.serialNumber, modes: brick.ports)
    }

    func makeController(_ endpoint: EV3Endpoint, serial: String?, modes: [Int: EV3SensorMode]) -> BrickController {
        var linkOptions = EV3LinkOptions.defaults(for: endpoint.transport)
        if let timeout = settings.replyTimeout { linkOptions.replyTimeout = timeout.duration }
        var logger = self.logger
        logger[metadataKey: "ev3.endpoint"] = "\(endpoint)"
        let controller = BrickController(
            endpoint: endpoint, serial: serial, modes: modes, linkOptions: linkOptions,
            pollInterval: settings.pollInterval.duration, backoff: options.backoff, sink: sink, logger: logger,
            claim: { [weak self] device, controller in await self?.claim(device, by: controller) ?? false })
        controllers[endpoint.description] = controller
        return controller
    }
}
