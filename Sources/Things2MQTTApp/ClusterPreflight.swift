import Bridge
import BridgeConfig
import BridgeCore
import Logging
import Mosquitto
import Support
import Synchronization

/// Before a bridge of a cluster connects under its own client id (`things2mqtt-<bridge_id>`), which would push
/// a live bridge with that id off the broker, it reads the presence under its id with a client id of its own:
/// online means another bridge runs with this id, and this one refuses to start. With `cluster.secret`, only an
/// authentic presence signed within the window counts (a live bridge says it every renewal): a forged or old
/// retained one does not keep this bridge from starting.
enum ClusterPreflight {
    /// Throws `ClusterStop` when another live bridge has this bridge's id; returns when the broker says nothing
    /// of one, or does not answer within `timeout` (the bridge then starts and keeps retrying, as alone).
    static func check(_ config: Configuration, logger: Logger, timeout: Duration = .seconds(10)) async throws {
        guard let cluster = config.cluster else { return }
        let presenceTopic = "\(cluster.clusterTopic(base: config.mqtt.baseTopic))/bridges/\(cluster.bridgeID)"
        let auth = BridgeService.makeClusterAuth(config)
        let nonce = UInt64.random(in: 0...UInt64.max)
        let probe = "\(presenceTopic)/probe/check-\(nonce)"
        var options = MosquittoOptions(config)
        options.clientID = "things2mqtt-check-\(nonce)"
        options.will = nil
        options.finalMessage = nil
        let seen = Mutex<JSONValue?>(nil)
        let connected = OnceValue<Void>()
        let answered = OnceValue<Void>()
        let client = try MosquittoClient(options: options, logger: logger) { event in
            switch event {
            case .connected: connected.set(())
            case .message(let message) where message.topic == presenceTopic:
                seen.withLock { $0 = JSONValue.parse(message.payload) }
            case .message(let message) where message.topic == probe: answered.set(())
            default: break
            }
        }
        client.subscribe(presenceTopic, qos: 1)
        client.subscribe(probe, qos: 1)
        let deadline = ContinuousClock.now + timeout
        async let running: Void = client.run()
        // The probe's echo comes after the retained presence, which the broker sends on subscribing.
        // Sent again until it comes back: the first may leave before the subscription is in place.
        if await connected.wait(until: deadline) != nil {
            while answered.value == nil, ContinuousClock.now < deadline {
                let payload = auth.map { $0.sign([:], topic: probe, at: BridgeService.wallMilliseconds) } ?? [:]
                client.publish(probe, payload: payload.jsonBytes, qos: 1, retain: false)
                _ = await answered.wait(until: min(deadline, ContinuousClock.now + .milliseconds(500)))
            }
        }
        await client.shutdown(timeout: .seconds(1))
        await running
        guard answered.value != nil else {
            logger.warning("Could not check the cluster for another bridge with this bridge_id; starting", metadata: ["bridge_id": "\(cluster.bridgeID)"])
            return
        }
        var presence = seen.withLock { $0 }
        if let auth {
            guard case .fresh(let body) = auth.verify(presence, topic: presenceTopic, at: BridgeService.wallMilliseconds) else { return }
            presence = body
        }
        if let presence, presence["state"] == "online" {
            throw ClusterStop(description: "another live bridge uses cluster.bridge_id \"\(cluster.bridgeID)\"")
        }
    }
}
