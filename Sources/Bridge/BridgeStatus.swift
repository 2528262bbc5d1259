import BridgeCore

/// Device status and device events: the one place where availability, `status` and connect/disconnect
/// events are derived, for every family.
extension BridgeService {
    func deviceStatus(_ id: DeviceID, _ status: DeviceStatus, detail: String?, state values: [String: JSONValue] = [:]) {
        if status.isConnected { clusterConnect(id, failed: false) }
        clusterLink(id, up: status.isConnected)
        // Changed where it is stored: a copy taken out would make the state's storage shared and copied.
        guard let index = devices.index(forKey: id) else { return }
        guard devices.values[index].status != status else {
            if !values.isEmpty { handleDeviceEvent(.state(id, values)) }
            return
        }
        let previous = devices.values[index].status
        devices.values[index].status = status
        if !values.isEmpty { devices.values[index].state = devices.values[index].state.merging(state: values) }
        devices.values[index].state["status"] = .string(status.rawValue)
        let record = devices.values[index]
        if previous?.isOnline != status.isOnline { publishAvailability(record) }
        publishState(record)
        // Only a change of connection is an event; a first status, or coming into range, is not.
        // busy ↔ ready comes with every command: bridge/devices is rebuilt only for the changes that matter.
        if previous == nil || previous?.isConnected != status.isConnected || previous?.isOnline != status.isOnline {
            scheduleInventory()
        }
        if let previous, previous.isConnected != status.isConnected {
            var data: [String: JSONValue] = [
                "id": .string(id.rawValue), "alias": .string(record.alias), "status": .string(status.rawValue),
            ]
            if let detail { data["detail"] = .string(detail) }
            publishEvent(status.isConnected ? "device_connected" : "device_disconnected", data)
        }
    }

    func deviceOccurrence(_ id: DeviceID, _ occurrence: DeviceOccurrence) {
        let alias = devices[id]?.alias ?? id.rawValue
        var data = occurrence.data
        data["id"] = .string(id.rawValue)
        data["alias"] = .string(alias)
        if occurrence.kind == .connectFailed { clusterConnect(id, failed: true) }
        // A light's command that failed with its link down went with the device's claim (`carryIfDropped`).
        if occurrence.kind == .commandFailed, carriedAway(id) {
            logger.info("Command failed here; its next owner sets it", metadata: ["device.id": "\(id)", "alias": "\(alias)"])
            return
        }
        switch occurrence.kind {
        case .commandFailed, .connectFailed:
            let reason = occurrence.data["error"]?.stringValue ?? occurrence.data["reason"]?.stringValue ?? ""
            warnRepeated(
                occurrence.kind == .commandFailed ? "failed commands" : "failed connects", source: alias,
                occurrence.kind == .commandFailed ? "Command failed" : "Connect failed",
                metadata: ["device.id": "\(id)", "alias": "\(alias)", "error": "\(reason)"])
            publishRepeatedEvent(occurrence.kind.rawValue, source: alias, data)
        case .interviewed, .decryptionFailed:
            publishEvent(occurrence.kind.rawValue, data)
        case .admissionRefused:
            // The device is not the bridge's (it was refused): the event names it by id only.
            data["alias"] = nil
            publishEvent(occurrence.kind.rawValue, data)
        }
    }

    /// One occurrence of an event expose, on `<alias>/event`: never retained, since a retained press would fire
    /// again for every new subscriber (Home Assistant after each restart), and never in the state, which is
    /// retained and re-published. Each occurrence is its own message; one the descriptor does not declare is
    /// refused, so that the topic only carries what Home Assistant's event entities were told to expect.
    func publishDeviceEvent(_ id: DeviceID, _ event: ExposeEvent) {
        guard let record = devices[id] else {
            logger.debug("Event for an unknown device ignored", metadata: ["device.id": "\(id)", "property": "\(event.property)"])
            return
        }
        guard publishes(id) else { return }
        if let problem = record.descriptor.problem(with: event) {
            warnRepeated(
                "refused device events", source: record.alias, "Device event refused",
                metadata: ["device.id": "\(id)", "alias": "\(record.alias)", "error": "\(problem)"])
            return
        }
        publishJSON(topics.event(record.alias), .object(event.payload), retain: false, qos: qos(for: record))
    }
}
