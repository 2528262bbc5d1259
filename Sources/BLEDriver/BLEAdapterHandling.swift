import BLEModels
import BridgeCore
import BlueZ
import DBus

/// The adapter: which one, its power, and discovery on it; the integration status says how that goes.
extension BLEDriver {
    func handle(_ event: BlueZClient.Event) async {
        guard let client else { return }
        switch event {
        case .available:
            // The devices BlueZ already knows follow as the load's `.changed`.
            await adapterChanged(client)
        case .unavailable:
            adapter = nil
            reportAdapters([])
            setOffline(.bluezUnavailable, "bluetoothd is not on the D-Bus system bus")
            for path in tracked.keys { setDeviceStatus(path, .unavailable) }
        case .failed(let reason):
            if adapter == nil { setOffline(.bluezUnavailable, reason) }
        case .changed(let changes):
            // One reading of the clock for the batch: it was taken from the mailbox at once, and its changes
            // are handled within the same few milliseconds.
            let now = self.now
            for change in changes {
                switch change {
                case .device(let device, let properties, let earlier):
                    // A burst's device changes reach the bridge together: one hand-over and one wake-up for
                    // the batch, and each device's readings are weighed once, at its end. Nothing here
                    // waits, so nothing else's events are held up.
                    deviceChanged(device, properties: properties, earlier: earlier, client, at: now)
                case .adapter, .adapterRemoved:
                    flushOutbox()
                    await adapterChanged(client)
                case .deviceRemoved(let path):
                    flushOutbox()
                    setDeviceStatus(path, .unavailable)
                case .gatt(let path):
                    flushOutbox()
                    guard let characteristic = client.objects.characteristics[path],
                        let owner = tracked.first(where: { path.hasPrefix($0.key + "/") })?.value.id
                    else { continue }
                    novaNotified(characteristic, device: owner)
                    gattNotified(characteristic, device: owner)
                case .gattRemoved: break
                }
            }
            flushOutbox()
        }
    }

    /// Reports an event to the bridge, at once or, while a batch of changes is handled, with the batch.
    func send(_ event: DeviceEvent) {
        if outbox != nil { outbox?.append(event) } else { sink.send(event) }
    }

    /// Weighs the readings of the batch the pacer lets go, then sends the batch's events, in order.
    func flushOutbox() {
        settleReadings()
        guard let events = outbox else { return }
        outbox = nil
        if !events.isEmpty { sink.send(contentsOf: events) }
    }

    /// Tells the bridge the adapter in use (none: an empty list) when it changed.
    func reportAdapters(_ names: [String]) {
        guard reportedAdapters != names else { return }
        reportedAdapters = names
        send(.adapters(integration, names))
    }

    /// Picks the configured adapter, or the first powered one with the central role, and keeps discovery on.
    func adapterChanged(_ client: BlueZClient) async {
        let adapters = client.objects.adapters.values.sorted { $0.path < $1.path }
        let chosen: BlueZAdapter?
        if let wanted = settings.adapter {
            chosen = adapters.first { $0.name == wanted }
        } else {
            chosen = adapters.first { $0.powered && ($0.roles.isEmpty || $0.roles.contains("central")) } ?? adapters.first
        }
        guard let chosen else {
            adapter = nil
            reportAdapters([])
            setOffline(.noAdapter, settings.adapter.map { "no Bluetooth adapter \($0)" } ?? "no Bluetooth adapter")
            return
        }
        adapter = chosen.path
        reportAdapters([chosen.name])
        guard chosen.powered else {
            setOffline(.adapterOff, "\(chosen.name) is powered off")
            return
        }
        if !chosen.discovering { await startDiscovery(chosen, client) }
        setStatus(.running, chosen.name)
    }

    private func startDiscovery(_ adapter: BlueZAdapter, _ client: BlueZClient) async {
        do throws(DBusError) {
            // LE only, and every advert (not just the first) so signal strength stays live.
            _ = try await client.call(
                adapter.path, BlueZInterface.adapter, "SetDiscoveryFilter",
                [.vardict(["Transport": .string("le"), "DuplicateData": .bool(true)])])
            _ = try await client.call(adapter.path, BlueZInterface.adapter, "StartDiscovery")
            logger.info("BLE discovery started", metadata: ["adapter": "\(adapter.name)"])
        } catch where error.name == "org.bluez.Error.InProgress" {
            // Someone else (or an earlier run) already has discovery going on this adapter: that is enough.
        } catch {
            logger.warning("BLE discovery could not start", metadata: ["adapter": "\(adapter.name)", "error": "\(error)"])
        }
    }

    func setStatus(_ state: IntegrationStatus.State, _ detail: String? = nil) {
        report(IntegrationStatus(state, detail: detail))
    }

    /// The integration is `offline` for a reason of BLE's own.
    func setOffline(_ reason: BLEOfflineReason, _ detail: String) {
        report(IntegrationStatus(.offline, reason: reason.rawValue, detail: detail))
    }

    /// Sends the status with the current figures, unless nothing changed.
    private func report(_ base: IntegrationStatus) {
        var newStatus = base
        newStatus.figures = ["ignored_devices": .number(Double(ignoredCount()))]
        guard newStatus != status else { return }
        status = newStatus
        send(.integrationStatus(.ble, newStatus))
    }

    /// The addresses seen lately and not published (bounded and expiring, so a count, not a list).
    func ignoredCount() -> Int { ignored.count(now: now) }

    /// Refreshes the ignored-devices figure in `bridge/info`.
    func reportFigures() { report(status) }
}

/// Why the BLE integration is `offline`: its `reason` in `bridge/info` and `bridge/event`.
enum BLEOfflineReason: String {
    case noAdapter = "no_adapter"
    case adapterOff = "adapter_off"
    /// bluetoothd is not on the system bus, or there is no system bus.
    case bluezUnavailable = "bluez_unavailable"
}
