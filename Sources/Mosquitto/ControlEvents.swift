import CMosquitto
import Logging

extension MosquittoClient {
    /// Acts on what the callbacks enqueued: restores subscriptions and retained messages after a connect,
    /// tells the owner about connection changes, notes acknowledgements and forwards library warnings.
    func processControlEvents() {
        for event in box.drainControl() {
            switch event {
            case .connect(let rc): connected(rc)
            case .disconnect(let rc):
                let wasConnected = state.withLock { state in
                    defer { state.connected = false }
                    return state.connected
                }
                guard wasConnected else { continue }
                // Messages queued now are dropped or re-sent after the next connect: none is outstanding.
                box.restartCount()
                let reason = rc == 0 ? "disconnected" : MosquittoError(code: rc, operation: "connection lost").description
                box.deliver(.disconnected(reason: reason))
            case .published(let mid):
                let isFinal = state.withLock { state in
                    if state.finalMID == mid { return true }
                    state.acknowledged.append(mid)
                    if state.acknowledged.count > 128 { state.acknowledged.removeFirst(64) }
                    return false
                }
                if isFinal { finalAcknowledged.set(()) }
            case .unsubscribed(let mid):
                let allDone = state.withLock { state in
                    guard state.closingUnsubscribes.remove(mid) != nil else {
                        state.acknowledgedUnsubscribes.insert(mid)
                        return false
                    }
                    return state.closingUnsubscribes.isEmpty
                }
                if allDone { inflowStopped.set(()) }
            case .log(let text):
                logger.warning("libmosquitto: \(text)")
            }
        }
    }

    private func connected(_ rc: Int32) {
        guard rc == 0 else {
            let reason = MosquittoError.connackReason(rc, version: options.protocolVersion)
            logger.error("MQTT broker refused the connection", metadata: ["reason": "\(reason)"])
            return
        }
        // A message queued before the connection was lost is never confirmed: the count starts over.
        box.restartCount()
        let (subscriptions, retained, again) = state.withLock { state in
            let again = state.connectedBefore
            state.connectedBefore = true
            state.connected = true
            state.connectedSinceAttempt = true
            return (state.subscriptions, state.retainedOrder.compactMap { state.retained[$0] }, again)
        }
        if again { MQTTMetrics.reconnects.increment() }
        logger.info("MQTT connected", metadata: ["broker": "\(options.host):\(options.port)", "restored": "\(retained.count)"])
        for (filter, qos) in subscriptions { subscribeNow(filter, qos: qos) }
        for message in retained { send(message) }
        box.deliver(.connected)
    }
}
