import BridgeCore
import FoundationEssentials
import LIFXModels
import Support

/// The writer: sends pending operations within the rate budget, then confirms or reverts them.
extension LIFXDriver {
    func writeLoop() async {
        var lastStart: ContinuousClock.Instant?
        for await _ in writerWakeups {
            while !pending.isEmpty {
                guard await pause(seconds: options.gatherWindow.inSeconds) else { return }
                if let lastStart, ContinuousClock.now < lastStart + options.minWriteInterval {
                    guard await pause(seconds: (lastStart + options.minWriteInterval - ContinuousClock.now).inSeconds) else { return }
                }
                if let delay = budget.delay(for: .write, now: options.clock.now) {
                    logger.info("LIFX writes wait for the rate limit to reset", metadata: ["seconds": "\(Int(delay.rounded(.up)))"])
                    guard await pause(seconds: delay + 0.05) else { return }
                    continue
                }
                let batch = pending.takeNext()
                guard !batch.isEmpty else { break }
                lastStart = .now
                guard await send(batch) else { return }
            }
        }
    }

    /// Sends pending operations for a bounded time, unless the rate limit forbids it; says what was left.
    func flushBeforeExit(within limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while !pending.isEmpty, ContinuousClock.now < deadline,
            budget.delay(for: .write, now: options.clock.now) == nil
        {
            _ = await send(pending.takeNext())
        }
        if !pending.isEmpty {
            logger.warning("LIFX commands not sent before shutdown", metadata: ["lights": "\(pending.selectors.count)"])
        }
    }

    /// Sends one request's worth; returns false if cancelled while backing off.
    private func send(_ batch: [(selector: String, operation: LIFXOperation)]) async -> Bool {
        let touched = batch.flatMap { lightIDs(for: $0.selector) }
        writing.formUnion(touched)
        defer {
            writing.subtract(touched)
            let now = ContinuousClock.now
            for id in touched { lastWriteDone[id] = now }
            refreshStatus(touched)
        }
        budget.spend(now: options.clock.now)
        do throws(LIFXError) {
            let outcomes = try await request(batch)
            writeBackoff.reset()
            for (item, results) in zip(batch, outcomes) { settle(item, results) }
            return true
        } catch {
            return await writeFailed(batch, error)
        }
    }

    /// Per batch item, the per-light results (or an error string for the whole item).
    private func request(_ batch: [(selector: String, operation: LIFXOperation)]) async throws(LIFXError)
        -> [Result<[LIFXResult], CommandError>]
    {
        if batch.count > 1 {
            var outcomes: [Result<[LIFXResult], CommandError>] = []
            let entries = batch.compactMap { item -> (selector: String, change: LIFXStateChange)? in
                if case .state(let change) = item.operation { return (item.selector, change) }
                return nil
            }
            for chunk in stride(from: 0, to: entries.count, by: 50).map({ Array(entries[$0..<min($0 + 50, entries.count)]) }) {
                let reply = try await client.setStates(chunk)
                noteRate(reply.rate)
                for (index, _) in chunk.enumerated() {
                    let operation = index < reply.value.results.count ? reply.value.results[index] : nil
                    if let error = operation?.error {
                        outcomes.append(.failure(CommandError(error)))
                    } else {
                        outcomes.append(.success(operation?.results ?? []))
                    }
                }
            }
            return outcomes
        }
        let item = batch[0]
        let reply: LIFXReply<LIFXResults>
        switch item.operation {
        case .state(let change): reply = try await client.setState(item.selector, change)
        case .effect(let name, let body): reply = try await client.effect(name, item.selector, body)
        case .scene(let uuid): reply = try await client.activateScene(uuid)
        }
        noteRate(reply.rate)
        return [.success(reply.value.results)]
    }

    /// Confirms lights that took the change; reverts and reports those that did not.
    private func settle(_ item: (selector: String, operation: LIFXOperation), _ outcome: Result<[LIFXResult], CommandError>) {
        let ids = lightIDs(for: item.selector)
        switch outcome {
        case .failure(let error):
            revert(ids, reason: "\(item.selector): \(error.message)")
        case .success(let results):
            for result in results {
                if result.succeeded {
                    if case .state(let change) = item.operation { confirmed[result.id] = confirmed[result.id].map(change.applied) }
                    setAvailability(.lifx(light: result.id), true)
                } else {
                    if result.status == "offline" { current[result.id]?.connected = false; confirmed[result.id]?.connected = false }
                    let label = current[result.id]?.label ?? result.label ?? result.id
                    revert([result.id], reason: "light \"\(label)\" (\(result.id)) is \(result.status.replacing("_", with: " "))")
                    if result.status == "offline" { setAvailability(.lifx(light: result.id), false) }
                }
            }
        }
    }

    /// Puts lights back to their last confirmed state, publishes it, and reports the failure per device.
    func revert(_ ids: [String], reason: String) {
        for id in ids {
            guard let known = confirmed[id] else { continue }
            current[id] = known
            logger.warning("LIFX command failed; state reverted", metadata: ["device.id": "lifx_\(id)", "reason": "\(reason)"])
            sink.send(.occurred(.lifx(light: id), .commandFailed(reason)))
        }
        publishAffected(ids)
    }

    private func writeFailed(_ batch: [(selector: String, operation: LIFXOperation)], _ error: LIFXError) async -> Bool {
        switch error {
        case .rateLimited(let reset):
            let wait = budget.rateLimited(reset: reset, now: options.clock.now)
            logger.warning("LIFX rate limit reached; commands wait for the reset", metadata: ["retry_in": "\(Int(wait.rounded(.up)))s"])
            pending.requeue(batch)
            return true
        case _ where error.isRetryable && writeBackoff.failures + 1 < options.maxAttempts:
            let wait = writeBackoff.next()
            logger.warning("LIFX write failed; retrying", metadata: ["error": "\(error)", "retry_in": "\(wait)"])
            pending.requeue(batch)
            return await pause(seconds: wait.inSeconds)
        default:
            writeBackoff.reset()
            if case .unauthorized = error {
                logger.error("LIFX cloud refused the token (401); check lifx.token")
                setStatus(.unauthorized, "the LIFX cloud refused the token (401)")
            }
            for item in batch { revert(lightIDs(for: item.selector), reason: error.description) }
            return true
        }
    }
}
