public import BridgeConfig
import BridgeCore
import Cluster
import FoundationEssentials

/// The cluster's boundary: what arrives under the cluster topic is checked (`cluster.secret`) before the pure
/// `ClusterState` sees it, what it publishes is signed, and what it refuses is counted and logged in summary.
extension BridgeService {
    /// The signer for a configuration with `cluster.secret`; nil without one.
    public static func makeClusterAuth(_ config: Configuration) -> ClusterAuth? {
        guard let settings = config.cluster, let secret = settings.secret else { return nil }
        return ClusterAuth(secret: secret.value, window: ClusterAuth.window(renewal: settings.renewalInterval.duration))
    }

    /// Milliseconds since 1970 by this machine's clock: the time messages are signed at and checked against.
    public static var wallMilliseconds: Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// A payload the cluster publishes, signed when there is a secret.
    func signed(_ payload: JSONValue, topic: String) -> JSONValue {
        clusterAuth?.sign(payload, topic: topic, at: Self.wallMilliseconds) ?? payload
    }

    /// Takes a message of the cluster's; false when the topic is not one. With a secret, only an authentic
    /// message signed within the window goes on, with two exceptions a replay cannot abuse: a retained claim
    /// replayed by the broker (its owner's run must still be live, and it lapses without fresh renewals) and a
    /// bridge's will (it counts only once that bridge's presence is overdue).
    func clusterMessage(_ message: InboundMessage) -> Bool {
        guard let cluster, message.topic.hasPrefix(cluster.topics.root + "/") else { return false }
        let payload = message.payload.isEmpty ? nil : JSONValue.parse(message.payload)
        guard let clusterAuth else {
            deliverCluster(message.topic, payload)
            return true
        }
        switch clusterAuth.verify(payload, topic: message.topic, at: Self.wallMilliseconds) {
        case .fresh(let body):
            deliverCluster(message.topic, body)
        case .stale(let body):
            switch cluster.topics.subject(of: message.topic) {
            case .claim where message.retained:
                deliverCluster(message.topic, body)
            case .presence(let bridge) where body["state"] == "offline":
                applyCluster(self.cluster?.lateOffline(bridge, now: .now) ?? [])
            default:
                rejectCluster(message.topic, "signed outside the accepted time window (a replay, or clocks apart)")
            }
        case .unauthenticated:
            rejectCluster(message.topic, "not authenticated with cluster.secret")
        }
        return true
    }

    private func deliverCluster(_ topic: String, _ payload: JSONValue?) {
        guard let before = cluster else { return }
        let actions = cluster?.received(topic: topic, payload: payload, now: .now) ?? []
        if let after = cluster {
            if after.dropped > before.dropped {
                warnRepeated(
                    "cluster messages dropped", source: "cluster", "Cluster message dropped: malformed, or a number out of range",
                    metadata: ["mqtt.topic": "\(topic)"])
            }
        }
        sayClusterBounds()
        applyCluster(actions)
    }

    /// Once each, when the cluster first left a bridge or a device untracked for its bound.
    func sayClusterBounds() {
        guard let cluster else { return }
        if cluster.ignoredPeers > 0, clusterBoundsSaid.insert("peers").inserted {
            logger.warning("The cluster tracks at most \(ClusterState.maxPeers) bridges; further bridge ids are ignored")
        }
        if cluster.ignoredDevices > 0, clusterBoundsSaid.insert("devices").inserted {
            logger.warning("The cluster tracks at most \(ClusterState.maxDevices) devices; further devices are ignored")
        }
    }

    private func rejectCluster(_ topic: String, _ reason: String) {
        clusterRejected += 1
        warnRepeated("cluster messages rejected", source: "cluster", "Cluster message rejected: \(reason)", metadata: ["mqtt.topic": "\(topic)"])
    }
}
