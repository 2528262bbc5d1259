import BridgeCore
import EV3Link
import EV3Protocol
import FoundationEssentials

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
        } else if endpoint.transport == .wifi, let serial = endpoint.knownSerial, !admitted(serial, endpoint) {
            return nil
        }
        logger.info("EV3 brick found", metadata: ["ev3.endpoint": "\(endpoint)", "ev3.serial": "\(endpoint.knownSerial ?? "?")"])
        return makeController(endpoint, serial: nil, modes: [:])
    }

    /// Whether a beacon brings in a brick not known yet (`BeaconAdmission`); a refusal is logged and reported on
    /// `bridge/event` at most once per few minutes.
    private func admitted(_ serial: String, _ endpoint: EV3Endpoint) -> Bool {
        guard case .refused(let notice) = beacons.admit(serial: serial, at: .now) else { return true }
        guard let notice else { return false }
        let message = "EV3 beacons of bricks not configured are refused: list the brick under devices: or ev3.bricks, or open ev3/permit"
        logger.warning("EV3 brick refused", metadata: ["ev3.endpoint": "\(endpoint)", "refused": "\(notice)"])
        sink.send(
            .occurred(
                DeviceID.ev3(serial: serial),
                DeviceOccurrence(
                    .admissionRefused,
                    [
                        "integration": "ev3", "reason": "permit_closed", "refused": .number(Double(notice)),
                        "error": .string(message),
                    ])))
        return false
    }

    /// `ev3/permit` `{"time": seconds}` opens (or with 0 closes) the window in which a brick heard by its beacon is
    /// connected even though it is not configured.
    func permit(_ payload: [String: JSONValue]) throws(CommandError) -> JSONValue {
        guard let seconds = payload["time"]?.doubleValue, seconds.isFinite, (0...3600).contains(seconds) else {
            throw CommandError("ev3/permit needs {\"time\": seconds}, 0 to 3600")
        }
        beacons.permit(for: .seconds(seconds), at: .now)
        logger.info("EV3 permit window", metadata: ["seconds": "\(Int(seconds))"])
        let until = Date().addingTimeInterval(seconds)
        return ["time": .number(seconds), "until": seconds > 0 ? .string(until.ISO8601Format()) : .null]
    }
}
