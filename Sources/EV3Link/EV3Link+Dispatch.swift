import EV3Protocol

/// How a request in flight ended.
enum Outcome: Sendable {
    case reply(EV3Reply)
    /// A frame with the request's counter that does not parse as a reply.
    case unreadable(EV3DecodingError)
    case timedOut
    case ended(EV3LinkError)
}

/// The request on the wire: its counter, and who waits for the outcome (or the outcome, if it came first).
struct InFlight {
    let counter: UInt16
    let generation: Int
    var waiter: CheckedContinuation<Outcome, Never>?
    var early: Outcome?
}

extension EV3Link {
    /// Sends queued entries one at a time until the connection ends.
    func pump(_ generation: Int) async {
        while let entry = await nextEntry(generation) {
            await pace()
            await dispatch(entry, generation)
        }
    }

    func wakePump() {
        pumpWaiter?.resume()
        pumpWaiter = nil
    }

    func isLive(_ generation: Int) -> Bool {
        session?.generation == generation && session?.endReason == nil
    }

    private func nextEntry(_ generation: Int) async -> EV3SendQueue<PendingRequest>.Entry? {
        while isLive(generation) {
            if let entry = queue.popFirst() { return entry }
            await withCheckedContinuation { pumpWaiter = $0 }
        }
        return nil
    }

    /// Keeps the transport's minimum interval since the last request went out.
    private func pace() async {
        guard options.minimumInterval > .zero, let lastSent else { return }
        let due = lastSent + options.minimumInterval
        if ContinuousClock.now < due { try? await Task.sleep(until: due, clock: .continuous) }
    }

    private func dispatch(_ entry: EV3SendQueue<PendingRequest>.Entry, _ generation: Int) async {
        let counter = counters.next()
        let command: Command
        do {
            command = try Command(entry, counter: counter)
        } catch {
            // Everything was encoded once when it was queued; should that ever differ, report it, never trap.
            return finish(entry, with: .failure(.encoding(error)), command: nil)
        }
        guard let session, isLive(generation) else {
            return finish(entry, with: .failure(.closed), command: command, reportMotion: false)
        }
        inFlight = InFlight(counter: counter, generation: generation)
        session.channel.send(command.frame)
        EV3Metrics.framesSent.increment()
        let now = ContinuousClock.now
        lastSent = now
        recentSends = recentSends.suffix(15) + [now]
        switch await awaitReply(counter, generation) {
        case .reply(let reply):
            missedInARow = 0
            finish(entry, with: .success(reply), command: command)
        case .unreadable(let error):
            missedInARow = 0
            finish(entry, with: .failure(.malformedReply(error.description)), command: command)
        case .timedOut:
            EV3Metrics.timeouts.increment()
            missedInARow += 1
            finish(entry, with: .failure(.timedOut(counter: counter)), command: command)
            if missedInARow >= options.maxMissedReplies { end(.stoppedAnswering(missed: missedInARow), generation) }
        case .ended(let reason):
            // The disconnect is reported on its own; queued motion that dies with it is not news.
            finish(entry, with: .failure(reason), command: command, reportMotion: false)
        }
    }

    /// Waits for the reply to `counter`, or the timeout, or the end of the connection.
    private func awaitReply(_ counter: UInt16, _ generation: Int) async -> Outcome {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [timeout = options.replyTimeout] in
                do {
                    try await Task.sleep(for: timeout)
                } catch {
                    return
                }
                await self.expire(counter, generation)
            }
            let outcome = await withCheckedContinuation { continuation in
                if let early = inFlight?.early {
                    inFlight = nil
                    continuation.resume(returning: early)
                } else {
                    inFlight?.waiter = continuation
                }
            }
            group.cancelAll()
            return outcome
        }
    }

    private func expire(_ counter: UInt16, _ generation: Int) {
        guard let inFlight, inFlight.counter == counter, inFlight.generation == generation else { return }
        resolve(.timedOut)
    }

    /// Ends the request in flight; the first outcome wins.
    func resolve(_ outcome: Outcome) {
        guard var flight = inFlight, flight.early == nil else { return }
        if let waiter = flight.waiter {
            inFlight = nil
            waiter.resume(returning: outcome)
        } else {
            flight.early = outcome
            inFlight = flight
        }
    }

    /// A frame from the brick: the reply in flight, or dropped.
    func receive(_ frame: [UInt8], _ generation: Int) {
        guard isLive(generation) else { return }
        EV3Metrics.framesReceived.increment()
        let expected = inFlight.flatMap { $0.generation == generation && $0.early == nil ? $0.counter : nil }
        do {
            let reply = try EV3Reply(frame: frame)
            if reply.counter == expected { return resolve(.reply(reply)) }
            droppedReplies += 1
            logger.debug("Dropped a reply no request waits for", metadata: ["ev3.counter": "\(reply.counter)"])
        } catch {
            let counter = frame.count >= 4 ? UInt16(frame[2]) | UInt16(frame[3]) << 8 : nil
            if let counter, counter == expected { return resolve(.unreadable(error)) }
            droppedReplies += 1
            logger.debug("Dropped an unreadable frame", metadata: ["ev3.error": "\(error)"])
        }
    }

    /// Ends the connection once: closes it, ends the request in flight, fails the queued requests and drops the
    /// queued motion.
    func end(_ reason: EV3LinkError, _ generation: Int) {
        guard var current = session, current.generation == generation, current.endReason == nil else { return }
        current.endReason = reason
        session = current
        current.channel.close()
        if inFlight?.generation == generation { resolve(.ended(reason)) }
        for request in queue.drain() { request.reply.resume(returning: .failure(reason)) }
        wakePump()
    }

    /// Hands the outcome to whoever waits: the caller of `send`, or the event stream for queued motion.
    private func finish(
        _ entry: EV3SendQueue<PendingRequest>.Entry, with result: Result<EV3Reply, EV3LinkError>, command: Command?,
        reportMotion: Bool = true
    ) {
        let checked = result.flatMap { reply -> Result<EV3Reply, EV3LinkError> in
            guard let command else { return .success(reply) }
            do throws(EV3LinkError) {
                try command.check(reply)
                return .success(reply)
            } catch {
                return .failure(error)
            }
        }
        switch entry {
        case .request(let request): request.reply.resume(returning: checked)
        case .motor, .stop:
            let failure: EV3LinkError? =
                switch checked {
                case .success(.direct(let reply)) where reply.status == .error: .refused(counter: reply.counter)
                case .success: nil
                case .failure(let error): error
                }
            if let failure, reportMotion { eventSink.yield(.commandFailed(entry.summary, failure)) }
        }
    }
}
