import CMosquitto
import Logging
import Support

/// The clean goodbye: inflow stopped, final message acknowledged, DISCONNECT flushed.
extension MosquittoClient {
    /// Stops the inflow, publishes the final message and waits for its acknowledgement, then disconnects and
    /// waits for the network thread to flush the DISCONNECT; all within `timeout`.
    ///
    /// The inflow stops first because closing a socket with unread data in it sends a TCP reset, and a reset
    /// makes the broker drop the DISCONNECT it had not read yet and publish the will after all.
    public func shutdown(timeout: Duration = .seconds(2)) async {
        let deadline = ContinuousClock.now + timeout
        if isConnected {
            await stopInflow(until: ContinuousClock.now + timeout / 2)
        }
        if let final = options.finalMessage, isConnected, let mid = send(final) {
            let alreadyAcknowledged = state.withLock { state in
                state.finalMID = mid
                return state.acknowledged.contains(mid)
            }
            if !alreadyAcknowledged { _ = await finalAcknowledged.wait(until: deadline) }
        }
        requestStop(within: deadline - .now)
        if started.withLock({ $0 }) {
            if await threadEnded.wait(until: deadline) == nil {
                logger.warning("MQTT network thread did not finish disconnecting in time")
            }
        }
    }

    /// Unsubscribes from everything and waits for the broker's confirmations, which follow every message
    /// it had already queued for us.
    private func stopInflow(until deadline: ContinuousClock.Instant) async {
        let filters = state.withLock { Array($0.subscriptions.keys) }
        var mids: Set<Int32> = []
        for filter in filters {
            var mid: Int32 = 0
            if mosquitto_unsubscribe(handle.pointer, &mid, filter) == 0 { mids.insert(mid) }
        }
        guard !mids.isEmpty else { return }
        let done = state.withLock { state in
            state.closingUnsubscribes.formUnion(mids)
            state.closingUnsubscribes.subtract(state.acknowledgedUnsubscribes)
            return state.closingUnsubscribes.isEmpty
        }
        if !done { _ = await inflowStopped.wait(until: deadline) }
    }
}
