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
    /// endpoint, or a brick with the same serial number).
    func adopt(_ endpoint: EV3Endpoint) -> BrickController? {
        guard controllers[endpoint.description] == nil else { return nil }
        if let serial = endpoint.knownSerial, owners[DeviceID.ev3(serial: serial)] != nil { return nil }
        if let serial = endpoint.knownSerial, settings.bricks.contains(where: { $0.serialNumber == serial }) { return nil }
        logger.info("EV3 brick found", metadata: ["ev3.endpoint": "\(endpoint)", "ev3.serial": "\(endpoint.knownSerial ?? "?")"])
        return makeController(endpoint, serial: nil, modes: [:])
    }
}
