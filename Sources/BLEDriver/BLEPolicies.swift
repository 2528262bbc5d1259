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
                manual: ownedElsewhere(entry.id) ? .disconnected : manual[entry.id] ?? .none)
        }
        let waiting = policy.challenges
        let decision = policy.evaluate(devices, now: now)
        for address in policy.challenges.keys where waiting[address] == nil {
            // Why a connection moves (or nearly did) is otherwise invisible: every device's signal as weighed.
            logger.debug(
                "BLE device clearly stronger than a connected one: it takes the connection if it stays so",
                metadata: ["device": "\(address.deviceID)", "hold": "\(policy.hold) s", "signals": "\(Self.weighed(devices))"])
        }
        if shared { closestPicks = policy.closestPicks(devices) }
        // Connects beyond the free slots wait for a later review.
        var free = freeSlots ?? .max
        for address in decision.connect {
            let id = address.deviceID
            if let waiting = retry[id], waiting.at > now { continue }
            guard free > 0 else { break }
            free -= 1
            tasks.start { await self.autoConnect(id) }
        }
        for address in decision.disconnect where !disconnecting.contains(address.deviceID) {
            let id = address.deviceID
            // A device handed to another bridge is dropped by `setOwnedElsewhere` once what is under way on it ended.
            if ownedElsewhere(id), underWay(id) { continue }
            disconnecting.insert(id)
            logger.debug("BLE policy disconnects a device", metadata: ["device": "\(id)", "signals": "\(Self.weighed(devices))"])
            let started = tasks.start {
                try? await self.disconnectNow(id)
                await self.disconnected(id)
            }
            if !started { disconnecting.remove(id) }
        }
    }

    /// Every device's signal and status as the policies weighed them, for the debug log.
    private static func weighed(_ devices: [KnownDevice]) -> [String] {
        devices.map { "\($0.address.deviceID)=\($0.signal.map { String($0) } ?? "none")/\($0.status)" }
    }

    /// Whether another bridge of the cluster owns the device, or none yet: this one must not connect it.
    func ownedElsewhere(_ id: DeviceID) -> Bool { shared && !ownedHere.contains(id) }

    /// Whether this bridge's rules would connect the device (a manual connect counts): owning it in a cluster
    /// takes a connection slot. For a `closest` rule, whether it is among the rule's strongest at the last review.
    func connects(_ entry: TrackedDevice) -> Bool {
        if manual[entry.id] == .connected { return true }
        let view = KnownDevice(
            address: entry.address, name: entry.name, services: entry.services, remembered: remembered.contains(entry.id))
        guard !policy.rules.isDenied(entry.address), let (_, rule) = policy.rules.rule(for: view) else { return false }
        switch rule.policy {
        case .never: return false
        case .remembered: return view.remembered
        case .all: return true
        case .closest: return closestPicks.contains(entry.address)
        }
    }

    /// Connections the adapter can still hold, nil without `max_connections`.
    var freeSlots: Int? {
        guard let limit = settings.maxConnections else { return nil }
        return max(0, limit - tracked.values.filter { KnownDevice.holds($0.status) }.count)
    }

    /// Tells the bridge the free slots when they changed.
    func reportSlots() {
        let free = freeSlots
        guard reportedSlots != .some(free) else { return }
        reportedSlots = .some(free)
        send(.connectionSlots(integration, free: free))
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
