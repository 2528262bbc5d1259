import BridgeConfig
import BridgeCore

/// Decides on the network thread which messages are worth queueing. The bridge subscribes to its commands and
/// requests only (never `<base>/#`, which would echo every state it publishes back to it), to the cluster's
/// topics and, for a while after start, to the discovery prefix, whose retained replay at each connect may hold
/// thousands of configs on a broker shared with other bridges: of those it reads only its own. Live, it reads
/// commands (`/set`, `/get`), requests, the cluster and Home Assistant's status; retained commands are dropped,
/// on the network thread, so they cost no place in the queue and no work of the bridge.
struct InboxFilter: Sendable {
    let statusTopic: String?
    let discoveryPrefix: String?
    /// Our `bridge/state` topic: every config this bridge wrote names it in its availability.
    let marker: [UInt8]
    let topics: Topics
    /// The cluster's topics, read live and retained (`<root>/`), if there is a cluster.
    let clusterRoot: String?

    init(config: Configuration) {
        let enabled = config.homeassistant.enabled
        statusTopic = enabled ? config.homeassistant.statusTopic : nil
        discoveryPrefix = enabled ? config.homeassistant.discoveryPrefix + "/" : nil
        marker = Array(Topics(base: config.mqtt.baseTopic).bridgeState.utf8)
        topics = Topics(base: config.mqtt.baseTopic, bridgeID: config.cluster?.bridgeID)
        clusterRoot = config.cluster.map { $0.clusterTopic(base: config.mqtt.baseTopic) + "/" }
    }

    /// Live commands, requests and Home Assistant's status; retained messages only where the bridge reads them.
    func isRelevant(_ message: InboundMessage) -> Bool {
        if message.topic == statusTopic { return true }
        if let clusterRoot, message.topic.hasPrefix(clusterRoot) { return true }
        guard message.retained else { return isCommand(message.topic) }
        if let discoveryPrefix, message.topic.hasPrefix(discoveryPrefix) {
            return Self.contains(message.payload, marker)
        }
        return false
    }

    /// `bridge/request/…`, or a device's `/set` or `/get` (`<alias>/event` is the bridge's own; `<alias>/set/event`
    /// is a command).
    func isCommand(_ topic: String) -> Bool {
        topics.requestName(topic) != nil || CommandTopic.parse(topic, base: topics.base) != nil
            || (clusterRoot != nil && Topics(base: topics.base).requestName(topic) != nil)
    }

    /// Whether `needle` occurs in `haystack`; linear for the short, distinctive needles used here.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
