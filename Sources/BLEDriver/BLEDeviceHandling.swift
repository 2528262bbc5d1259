import BLEModels
import BridgeCore
import BlueZ
import DBus
import Foundation

/// Devices: which appear, their signal, last-seen time and status.
extension BLEDriver {
    func deviceChanged(_ path: String, properties: Set<String>, _ client: BlueZClient) async {
        guard let device = await client.objects.devices[path], let address = device.address else { return }
        let id = address.deviceID
        if tracked[path] == nil {
            let view = KnownDevice(
                address: address, name: device.name, services: Set(device.services), status: .available,
                remembered: remembered.contains(id))
            let reason = DeviceAdmission.reason(
                for: view, rules: settings.rules, configured: configured, permitUntil: permitUntil, now: now)
            guard reason != nil else {
                ignored.record(address, now: now)
                return
            }
            ignored.remove(address)
            tracked[path] = TrackedDevice(id: id, address: address)
        }
        guard var entry = tracked[path] else { return }
        // The descriptor depends on these only; adverts (RSSI, data) do not rebuild it.
        if entry.descriptor == nil || !properties.isDisjoint(with: ["Name", "Alias", "UUIDs", "Adapter"]) {
            entry.name = device.name ?? device.alias
            entry.services = Set(device.services)
            let descriptor = entry.withGatt(TrackedDevice.descriptor(for: device, id: id, address: address))
            if descriptor.kind == "light", novas[id] == nil {
                novas[id] = NovaSession()
                sink.send(.state(id, NovaSession().current.json))
            }
            if entry.descriptor != descriptor {
                entry.descriptor = descriptor
                sink.send(.discovered(descriptor))
            }
        }
        var state: [String: JSONValue] = [:]
        var signalMoved = false
        if properties.contains("RSSI"), let rssi = device.rssi, rssi != Signal.unavailableRSSI {
            entry.window.add(rssi: rssi, at: now)
            state["rssi"] = .number(Double(rssi))
            state["last_seen"] = .string(Date().ISO8601Format())
            if let signal = entry.window.signal(at: now).map({ ($0 * 100).rounded() / 100 }) {
                state["signal"] = .number(signal)
                signalMoved = signal != entry.signal
                entry.signal = signal
            }
        }
        tracked[path] = entry
        if !state.isEmpty { sink.send(.state(id, state)) }
        let heard = entry.window.lastSeen.map { now - $0 < awayAfter } ?? false
        // A connection being set up, or a command in flight, keeps its status until the connection drops.
        let status: DeviceStatus
        if device.connected {
            status = entry.status == .busy || entry.status == .connecting ? entry.status ?? .ready : .ready
        } else {
            status = entry.status == .connecting ? .connecting : (heard ? .available : .unavailable)
        }
        let statusMoved = entry.status != status
        if statusMoved { setDeviceStatus(path, status) }
        if signalMoved || statusMoved { applyPolicies() }
    }

    func setDeviceStatus(_ path: String, _ status: DeviceStatus) {
        guard var entry = tracked[path] else { return }
        guard entry.status != status else { return }
        let wasConnected = entry.status?.isConnected == true
        entry.status = status
        tracked[path] = entry
        sink.send(.status(entry.id, status))
        // Connected and resolved afresh (not back from busy): the GATT tree is known now.
        if status == .ready, !wasConnected { Task { await self.interview(path) } }
    }

    /// Marks devices not heard from for `away_after`, and not connected, unavailable; runs until cancelled.
    func sweep() async {
        while (try? await Task.sleep(for: .seconds(1))) != nil {
            for (path, entry) in tracked where entry.status?.isConnected != true && entry.status != .connecting {
                let silent = entry.window.lastSeen.map { now - $0 >= awayAfter } ?? true
                if silent { setDeviceStatus(path, .unavailable) }
            }
            applyPolicies()
            reportFigures()
        }
    }

    var awayAfter: Double { Double(settings.awayAfter.milliseconds) / 1000 }
}
