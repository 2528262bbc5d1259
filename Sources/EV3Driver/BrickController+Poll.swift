import BridgeCore
import EV3Link
import EV3Protocol

/// Polling: every interval, the brick and its eight ports in one direct command (or, after a group failed on
/// its own, that group in a command of its own: `EV3PollPlan`), then the sensor modes wanted.
extension BrickController {
    /// Polls while connected, every `pollInterval` from the start of one poll to the next, or at once when woken.
    func pollLoop() async {
        while !Task.isCancelled {
            let started = ContinuousClock.now
            if connected { await pollOnce() }
            let left = pollInterval - (ContinuousClock.now - started)
            guard await pollPause.wait(max(left, .zero)) else { return }
        }
    }

    /// Polls now: after a connection, or for a `/get`.
    func wakePoll() { pollPause.wake() }

    /// One poll cycle: each request of the plan, the results applied, groups that failed recorded.
    func pollOnce() async {
        BrickMetrics.polls.increment()
        var failed: [[PollGroup]] = []
        var results: [PollResult] = []
        for groups in plan.requests {
            guard connected else { return }
            let request: PollRequest
            do {
                request = try PollRequest(groups: groups, ports: model.ports)
            } catch {
                logger.error("EV3 poll could not be encoded", metadata: ["groups": "\(groups)", "error": "\(error)"])
                failed.append(groups)
                continue
            }
            let reply: EV3DirectReply
            do {
                reply = try await link.send(request.batch)
            } catch {
                switch error {
                case .refused, .malformedReply: failed.append(groups)
                // The brick is slow or gone: not the fault of these groups; the link deals with the connection.
                default: return
                }
                continue
            }
            do {
                results += try request.read(reply)
            } catch {
                logger.debug("EV3 poll group refused", metadata: ["groups": "\(groups)", "error": "\(error)"])
                failed.append(groups)
            }
        }
        let isolated = plan.isolated
        plan.record(failed: failed)
        results = plausible(results)
        if plan.isolated != isolated {
            logger.notice(
                "EV3 poll groups polled on their own", metadata: ["groups": "\(plan.isolated.map(\.description).sorted())"])
        }
        apply(results)
    }

    /// The results a brick can have reported; the others are counted and dropped, one debug line each.
    private func plausible(_ results: [PollResult]) -> [PollResult] {
        results.filter { result in
            guard let problem = ReadingBounds.problem(result) else { return true }
            BrickMetrics.implausible.increment()
            logger.debug("EV3 reply dropped: a value the brick cannot report", metadata: ["value": "\(problem)"])
            return false
        }
    }

    /// Takes a poll's results: new exposes when the ports changed, the modes wanted, the state.
    private func apply(_ results: [PollResult]) {
        guard connected else { return }
        let before = model.ports
        if model.apply(results) {
            // A port whose device changed may poll fine together with the others again.
            for port in BrickPort.all where before[port] != model.ports[port] { plan.readmit(.port(port)) }
            announce()
        } else if announced?.label != model.state["name"]?.stringValue {
            announce()
        }
        publishState()
        keepModes()
    }

    /// Asks again for a wanted mode a sensor is not in (after a plug, or a switch on the brick), at most every
    /// few seconds per port.
    private func keepModes() {
        let now = ContinuousClock.now
        for (number, mode) in wantedModes.sorted(by: { $0.key < $1.key }) {
            guard let device = model.ports[.sensor(number)], device.type == mode.device, device.namedMode != mode else {
                continue
            }
            if let asked = modeAsked[number], now - asked < .seconds(5) { continue }
            modeAsked[number] = now
            tasks.start { await self.selectMode(mode, on: number, reportFailure: false) }
        }
    }

    /// Switches a sensor's mode with a read in that mode (the firmware changes mode for a read that asks
    /// for another one).
    func selectMode(_ mode: EV3SensorMode, on number: Int, reportFailure: Bool) async {
        guard let port = EV3InputPort.sensor(number) else { return }
        var batch = EV3Batch()
        do {
            batch.append(try EV3Query<[Float?]>.readySI(port, type: mode.device, mode: Int(mode.number), values: mode.valueCount))
        } catch {
            return fail("port_\(number) mode \(mode.rawValue): \(error)")
        }
        await request(batch, what: "port_\(number) mode \(mode.rawValue)", report: reportFailure)
        wakePoll()
    }
}
