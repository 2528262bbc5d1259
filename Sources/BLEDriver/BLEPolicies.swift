import BLEModels
import BridgeCore
import Support

/// The auto-connect policies, applied after every change of signal or status and once a second.
extension BLEDriver {
    /// The least time between two reviews that a moving signal starts, in seconds.
    static let policyPause = 0.25

    func applyPolicies() {
        guard client != nil, status.state == .running else { return }
        policiesRun = now
        let devices = tracked.values.map { entry in
            KnownDevice(
                address: entry.address, name: entry.name, services: entry.services,
                signal: entry.window.signal(at: now), status: entry.status ?? .available, remembered: remembered.contains(entry.id),
                manual: ownedElsewhere.contains(entry.id) ? .disconnected : manual[entry.id] ?? .none)
        }
        let decision = policy.evaluate(devices, now: now)
        for address in decision.connect {
            let id = address.deviceID
            if let waiting = retry[id], waiting.at > now { continue }
            tasks.start { await self.autoConnect(id) }
        }
        for address in decision.disconnect where !disconnecting.contains(address.deviceID) {
            let id = address.deviceID
            disconnecting.insert(id)
            let started = tasks.start {
                try? await self.disconnectNow(id)
                await self.disconnected(id)
            }
            if !started { disconnecting.remove(id) }
        }
    }

    private func disconnected(_ id: DeviceID) {
        disconnecting.remove(id)
    }

    /// One automatic connect; a failure backs off (capped, with jitter) before the policy tries again.
    private func autoConnect(_ id: DeviceID) async {
        guard let entry = tracked.values.first(where: { $0.id == id }), entry.status == .available else { return }
        do throws(CommandError) {
            try await connectNow(id)
            retry[id] = nil
        } catch {
            var backoff = retry[id]?.backoff ?? Backoff(initial: .seconds(2), maximum: .seconds(60))
            let delay = backoff.next()
            retry[id] = (now + delay.inSeconds, backoff)
            logger.warning("BLE auto-connect failed", metadata: ["device.id": "\(id)", "error": "\(error.message)", "retry_in": "\(delay)"])
        }
    }
}
