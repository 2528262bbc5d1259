import BridgeCore
import FoundationEssentials
import LIFXModels
import Support

/// Polling: one `GET /lights/all` per interval covers every light; polls give way to commands when the budget is low.
extension LIFXDriver {
    func pollLoop() async {
        var polls = 0
        var backoff = Backoff(initial: .seconds(1), maximum: min(max(options.pollInterval, .seconds(1)), .seconds(300)))
        while !Task.isCancelled {
            if let delay = budget.delay(for: .poll, now: options.clock.now) {
                logger.debug("LIFX poll waits for the rate budget", metadata: ["seconds": "\(delay)"])
                guard await pause(seconds: delay) else { return }
                continue
            }
            let requestedAt = ContinuousClock.now
            budget.spend(now: options.clock.now)
            do throws(LIFXError) {
                let reply = try await client.listLights()
                noteRate(reply.rate)
                apply(reply.value, requestedAt: requestedAt)
                if polls % max(options.sceneRefreshPolls, 1) == 0 { try await refreshScenes() }
                if polls == 0 { sink.send(.inventoryComplete(.lifx)) }
                polls += 1
                backoff.reset()
                setStatus(.running)
                guard await pollPause.wait(options.pollInterval) else { return }
            } catch {
                guard await pollFailed(error, backoff: &backoff) else { return }
            }
        }
    }

    /// Handles a failed poll; returns false when the task was cancelled while waiting.
    private func pollFailed(_ error: LIFXError, backoff: inout Backoff) async -> Bool {
        switch error {
        case .unauthorized:
            if status.state != .unauthorized {
                logger.error("LIFX cloud refused the token (401); check lifx.token. Retrying in \(options.unauthorizedRetry).")
            }
            setStatus(.unauthorized, "the LIFX cloud refused the token (401)")
            return await pollPause.wait(options.unauthorizedRetry)
        case .rateLimited(let reset):
            budget.rateLimited(reset: reset, now: options.clock.now)
            return true
        default:
            let wait = backoff.next()
            logger.warning("LIFX poll failed", metadata: ["error": "\(error)", "retry_in": "\(wait)"])
            setStatus(.error, error.description)
            return await pause(seconds: wait.inSeconds)
        }
    }

    func refreshScenes() async throws(LIFXError) {
        budget.spend(now: options.clock.now)
        let reply = try await client.listScenes()
        noteRate(reply.rate)
        guard reply.value != scenes else { return }
        scenes = reply.value
        publishScenes()
    }

    func noteRate(_ rate: RateHeaders) {
        budget.update(limit: rate.limit, remaining: rate.remaining, reset: rate.reset)
    }

    func setStatus(_ state: IntegrationStatus.State, _ detail: String? = nil) {
        let newStatus = IntegrationStatus(state, detail: detail)
        guard newStatus != status else { return }
        status = newStatus
        sink.send(.integrationStatus(.lifx, newStatus))
    }

    /// Merges a poll. Lights with writes pending, in flight, or finished after the poll was sent keep their
    /// optimistic state, so a stale poll never undoes a fresh command.
    func apply(_ lights: [LIFXLight], requestedAt: ContinuousClock.Instant) {
        var seen = Set<String>()
        var newGroups: [String: LIFXGroup] = [:]
        for light in lights {
            seen.insert(light.id)
            confirmed[light.id] = light
            let busy = writing.contains(light.id) || (lastWriteDone[light.id].map { $0 > requestedAt } ?? false)
                || pendingTouches(light.id)
            if busy, var optimistic = current[light.id] {
                optimistic.connected = light.connected
                current[light.id] = optimistic
            } else {
                current[light.id] = light
            }
            if let group = light.group {
                newGroups[group.id, default: LIFXGroup(id: group.id, name: group.name, members: [])].members.append(light.id)
            }
        }
        for light in lights {
            announce(descriptor(for: light), native: .light(light.id))
            setAvailability(.lifx(light: light.id), light.connected)
            publish(.lifx(light: light.id), LightStateMapping.state(of: current[light.id] ?? light))
        }
        for gone in Set(current.keys).subtracting(seen) { removeDevice(.lifx(light: gone)); current[gone] = nil; confirmed[gone] = nil }
        for gone in Set(groups.keys).subtracting(newGroups.keys) { removeDevice(.lifx(group: gone)) }
        groups = newGroups
        for group in newGroups.values.sorted(by: { $0.id < $1.id }) {
            announce(descriptor(for: group), native: .group(group.id))
            publishGroup(group)
        }
    }

    private func pendingTouches(_ lightID: String) -> Bool {
        pending.selectors.contains { lightIDs(for: $0).contains(lightID) }
    }

    private func removeDevice(_ device: DeviceID) {
        guard announced.removeValue(forKey: device) != nil else { return }
        published[device] = nil
        statuses[device] = nil
        nativeIDs[device] = nil
        sink.send(.removed(device))
    }

    /// Sleeps; false if cancelled.
    func pause(seconds: Double) async -> Bool {
        do {
            let bounded = seconds.isFinite ? min(max(seconds, 0), 86_400) : 60
            try await Task.sleep(for: .milliseconds(Int64(bounded * 1000) + 1))
            return true
        } catch {
            return false
        }
    }

    /// Polls now instead of at the end of the interval.
    func requestRefresh() { pollPause.wake() }
}
