import BridgeConfig
import BridgeCore

/// Device events from drivers, merged into the state store and published.
extension BridgeService {
    func handleDeviceEvent(_ event: DeviceEvent) {
        switch event {
        case .discovered(let descriptor): deviceDiscovered(descriptor)
        case .removed(let id):
            guard let record = devices[id] else { return }
            forgetDevice(record)
            publishEvent("device_removed", ["id": .string(id.rawValue), "alias": .string(record.alias), "reason": "gone"])
        case .state(let id, let values):
            guard let index = devices.index(forKey: id) else {
                logger.debug("State for an unknown device ignored", metadata: ["device.id": "\(id)"])
                return
            }
            let merged = devices.values[index].state.merging(state: values)
            guard merged != devices.values[index].state else { return }
            devices.values[index].state = merged
            publishState(devices.values[index])
        case .status(let id, let status, let detail, let values): deviceStatus(id, status, detail: detail, state: values)
        case .occurred(let id, let occurrence): deviceOccurrence(id, occurrence)
        case .event(let id, let event): publishDeviceEvent(id, event)
        case .heard(let id, let rssi, let connects, let holds):
            clusterHeard(id, rssi: rssi, connects: connects, holds: holds)
        case .connectionSlots(let integration, let free): clusterSlots(integration, free: free)
        case .adapters(let integration, let names): clusterAdapters(integration, names)
        case .integrationStatus(let integration, let status):
            guard integrationStatus[integration] != status else { return }
            let previous = integrationStatus[integration]
            integrationStatus[integration] = status
            // A change of figures alone (a counter) refreshes bridge/info without an event or a log line.
            if previous?.state == status.state, previous?.reason == status.reason, previous?.detail == status.detail {
                scheduleInventory()
                return
            }
            logger.info(
                "Integration status",
                metadata: [
                    "driver": "\(integration.rawValue)", "status": "\(status.state.rawValue)",
                    "reason": "\(status.reason ?? "")", "detail": "\(status.detail ?? "")",
                ])
            publishEvent(
                "integration_status",
                [
                    "integration": .string(integration.rawValue), "status": .string(status.state.rawValue),
                    "reason": status.reason.map(JSONValue.string) ?? .null,
                    "detail": status.detail.map(JSONValue.string) ?? .null,
                ])
            publishInfo()
        case .inventoryComplete(let integration):
            discovery.completeIntegrations.insert(integration)
            cleanStaleDiscovery()
        }
    }

    private func deviceDiscovered(_ reported: DeviceDescriptor) {
        let descriptor = withRoom(reported)
        let id = descriptor.id
        if let previous = devices[id] {
            guard previous.descriptor != descriptor else { return }
            var record = previous
            record.descriptor = descriptor
            devices[id] = record
            publishDiscovery(for: record, previous: previous)
            scheduleInventory()
            return
        }
        let settings = config.devices[id] ?? DeviceSettings()
        let alias = uniqueAlias(savedAliases[id] ?? settings.alias ?? id.rawValue, for: id)
        var record = DeviceRecord(descriptor: descriptor, alias: alias, settings: settings)
        // In a cluster the driver holds every device down until the bridge says it may connect it.
        record.held = cluster != nil
        devices[id] = record
        if let cluster, cluster.manages(id), cluster.mayConnect(id) { tellConnection(id, allowed: true) }
        aliasIndex[alias] = id
        listenForCommands(to: alias)
        if !settings.retain { clearRetained(topics.state(alias)) }
        publishDiscovery(for: record)
        publishEvent(
            "device_added",
            ["id": .string(id.rawValue), "alias": .string(alias), "kind": .string(descriptor.kind), "model": .string(descriptor.model)])
        logger.info("Device added", metadata: ["device.id": "\(id)", "alias": "\(alias)", "model": "\(descriptor.model)"])
        scheduleInventory()
    }

    /// Subscribes to the commands of aliases with as many topic levels as `alias` (`kitchen/light` has two), once.
    func listenForCommands(to alias: String) {
        listenForCommands(levels: alias.split(separator: "/", omittingEmptySubsequences: false).count)
    }

    /// Subscribes to the commands of aliases of up to `levels` topic levels, those not yet subscribed.
    func listenForCommands(levels: Int) {
        while commandLevels < levels {
            commandLevels += 1
            for filter in topics.commandFilters(levels: commandLevels) { transport.subscribe(filter, qos: config.mqtt.qos) }
        }
    }

    /// The wanted alias or, if another device holds it (e.g. from an old alias file), the id made unique.
    private func uniqueAlias(_ wanted: String, for id: DeviceID) -> String {
        func free(_ alias: String) -> Bool { aliasIndex[alias] == nil || aliasIndex[alias] == id }
        guard !free(wanted) else { return wanted }
        var alias = id.rawValue
        var counter = 2
        while !free(alias) {
            alias = "\(id.rawValue)_\(counter)"
            counter += 1
        }
        logger.warning("Alias already taken", metadata: ["device.id": "\(id)", "wanted": "\(wanted)", "alias": "\(alias)"])
        return alias
    }

    /// Clears everything retained for a device and drops it.
    func forgetDevice(_ record: DeviceRecord) {
        clearRetained(topics.state(record.alias))
        clearRetained(topics.availability(record.alias))
        clearDiscovery(for: record)
        devices[record.id] = nil
        aliasIndex[record.alias] = nil
        scheduleInventory()
    }

    /// Finds a device by id, alias or network address.
    func lookup(_ key: String) -> DeviceRecord? {
        if let id = aliasIndex[key] ?? DeviceID(key), let record = devices[id] { return record }
        // A network identity as Home Assistant knows it (a Bluetooth or MAC address), in any case; looked through
        // only when the key is neither an alias nor an id.
        let identity = key.lowercased()
        guard identity.count >= 12 else { return nil }
        return devices.values.first { record in record.descriptor.connections.contains { $0.last?.lowercased() == identity } }
    }
}
