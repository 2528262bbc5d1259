import BridgeCore
import EV3Link
import EV3Protocol

/// Bricks that are not in the config: WiFi bricks by their UDP beacon, USB bricks by their hidraw ids.
extension EV3Driver {
    /// Hears beacons until cancelled and hands every brick's endpoint to `found`.
    func listenForBeacons(_ found: AsyncStream<EV3Endpoint>.Continuation) async {
        let port = settings.discovery.beaconPort
        let listener: EV3BeaconListener
        do {
            listener = try EV3BeaconListener.start(port: port, host: options.beaconHost)
        } catch {
            logger.error("EV3 WiFi discovery is off: cannot listen for beacons", metadata: ["port": "\(port)", "error": "\(error)"])
            sink.send(.integrationStatus(.ev3, IntegrationStatus(.running, detail: "no WiFi discovery: UDP \(port): \(error)")))
            return
        }
        logger.info("Listening for EV3 beacons", metadata: ["port": "\(listener.port)"])
        await withTaskCancellationHandler {
            for await sighting in listener.sightings { found.yield(sighting.endpoint) }
        } onCancel: {
            listener.stop()
        }
    }

    /// Looks for EV3 bricks on USB now and every `usbScanInterval` until cancelled.
    func scanUSB(_ found: AsyncStream<EV3Endpoint>.Continuation) async {
        repeat {
            for path in EV3USBDiscovery.devices(sysfs: options.sysfs, dev: options.dev) { found.yield(.usb(path: path)) }
        } while (try? await Task.sleep(for: options.usbScanInterval)) != nil
    }

    /// A controller for a brick found without being configured; nil when one already reaches it (the same
    /// endpoint, or a brick with the same serial number). A brick found before that now beacons from another
    /// address (a new DHCP lease) while its old one does not answer is reached at the new one instead.
    func adopt(_ endpoint: EV3Endpoint) async -> BrickController? {
        guard controllers[endpoint.description] == nil else { return nil }
        if let serial = endpoint.knownSerial, settings.bricks.contains(where: { $0.serialNumber == serial }) { return nil }
        if let serial = endpoint.knownSerial, let owner = owners[DeviceID.ev3(serial: serial)] {
            let configured = configuredEndpoints.contains(owner.endpoint.description)
            guard !configured, owner.endpoint.transport == .wifi, !(await owner.isConnected) else { return nil }
            logger.info(
                "EV3 brick moved", metadata: ["ev3.from": "\(owner.endpoint)", "ev3.to": "\(endpoint)", "ev3.serial": "\(serial)"])
            owner.retire.yield()
            owners[DeviceID.ev3(serial: serial)] = nil
            controllers[owner.endpoint.description] = nil
        }
        logger.info("EV3 brick found", metadata: ["ev3.endpoint": "\(endpoint)", "ev3.serial": "\(endpoint.knownSerial ?? "?")"])
        return makeController(endpoint, serial: nil, modes: [:])
    }
}
