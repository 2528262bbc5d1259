import BridgeCore
import EV3Link
import EV3Protocol

/// Commands: stops jump the link's queue, motor set-points coalesce in it, the rest goes as one direct
/// command; the state shows the outcome at once and a failure comes back as `command_failed`.
extension BrickController {
    /// Sends a validated `/set`; throws, sending nothing, when it cannot go to the brick.
    func perform(_ set: SetCommand) async throws(CommandError) {
        let commands = try BrickCommands(set.attributes)
        guard connected, let id else {
            let name = id?.rawValue ?? endpoint.description
            throw CommandError("\(name) is not connected (\(held ? "disconnected by request" : status?.rawValue ?? "unknown"))")
        }
        do throws(EV3LinkError) {
            for stop in commands.stops { try await link.stop(stop.ports, brake: stop.brake) }
            for (port, motor) in commands.motors.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                try await link.enqueueMotor(port, motor)
            }
        } catch {
            throw CommandError("\(id): \(error)")
        }
        for (port, speed) in commands.speeds { model.setSpeed(speed, on: port) }
        let previousLED = model.state["led"]
        if let led = commands.led { model.setLED(led) }
        if let name = commands.name { model.setName(name) }
        for (number, mode) in commands.modes {
            wantedModes[number] = mode
            modeAsked[number] = .now
            model.setMode(mode, on: number)
        }
        if commands.name != nil { announce() }
        publishState()
        if !commands.instructions.isEmpty {
            var batch = EV3Batch()
            for instruction in commands.instructions { batch.append(instruction) }
            let what = commands.instructions.map(\.name).joined(separator: ", ")
            tasks.start { [batch] in
                let done = await self.request(batch, what: what, report: true)
                if !done, commands.led != nil { await self.revertLED(to: previousLED, from: commands.led) }
            }
        }
        for (number, mode) in commands.modes.sorted(by: { $0.key < $1.key }) {
            tasks.start { await self.selectMode(mode, on: number, reportFailure: true) }
        }
    }

    /// Sends a request of the user's; the device is `busy` meanwhile. Returns whether the brick carried it out.
    @discardableResult
    func request(_ batch: EV3Batch, what: String, report: Bool) async -> Bool {
        outstanding += 1
        if outstanding == 1, status == .ready { setStatus(.busy) }
        defer {
            outstanding = max(0, outstanding - 1)
            if outstanding == 0, status == .busy { setStatus(.ready) }
        }
        let failure: String
        do {
            let reply = try await link.send(batch)
            guard reply.status != .ok else { return true }
            failure = "the brick refused it"
        } catch {
            failure = error.description
        }
        if report { fail("\(what): \(failure)") }
        return false
    }

    private func revertLED(to previous: JSONValue?, from sent: EV3LEDPattern?) {
        guard let sent, model.state["led"] == .string(sent.name) else { return }
        if let previous = previous?.stringValue.flatMap(EV3LEDPattern.init(name:)) { model.setLED(previous) } else { model.clearLED() }
        publishState()
    }

    /// `/get`: polls now.
    func refresh() { wakePoll() }

    /// `device/connect`: releases a brick held down and returns once the next attempt connected it.
    func connect() async throws(CommandError) {
        if connected { return }
        held = false
        release.yield()
        let outcome = await withCheckedContinuation { attemptWaiters.append($0) }
        if case .failure(let reason) = outcome { throw CommandError("connecting \(endpoint) failed: \(reason)") }
    }

    /// `device/disconnect`: closes the connection and holds the brick down until `connect()`.
    func disconnect() async {
        hold()
        if status == .connecting || status == .unavailable { setStatus(.available) }
        await linkEnded?.wait()
    }

    /// Stops the link and keeps it down.
    func hold() {
        held = true
        holdDown.yield()
    }

    /// Hands the outcome of a connection attempt to the callers of `connect()`.
    func finishAttempt(_ outcome: Result<Void, EV3LinkError>) {
        let waiters = attemptWaiters
        attemptWaiters = []
        for waiter in waiters { waiter.resume(returning: outcome) }
    }
}
