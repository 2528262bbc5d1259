import BridgeConfig
import BridgeCore

/// Decides on the network thread which retained replays are worth queueing. Subscribing to `<base>/#` and
/// the discovery prefix replays every retained message under them at each connect (thousands on a broker
/// shared with other bridges); the bridge reads only Home Assistant's status and its own discovery configs.
/// Live echoes of its own device events are dropped too: unlike state they come in bursts that are never
/// merged, and would otherwise take the places of commands in the queue.
struct InboxFilter: Sendable {
    let statusTopic: String?
    let discoveryPrefix: String?
    /// Our `bridge/state` topic: every config this bridge wrote names it in its availability.
    let marker: [UInt8]
    let base: String

    init(config: Configuration) {
        let enabled = config.homeassistant.enabled
        statusTopic = enabled ? config.homeassistant.statusTopic : nil
        discoveryPrefix = enabled ? config.homeassistant.discoveryPrefix + "/" : nil
        marker = Array(Topics(base: config.mqtt.baseTopic).bridgeState.utf8)
        base = config.mqtt.baseTopic
    }

    /// Live messages except device events; retained ones only where the bridge reads them.
    func isRelevant(_ message: InboundMessage) -> Bool {
        guard message.retained else { return message.topic == statusTopic || !isDeviceEvent(message.topic) }
        if message.topic == statusTopic { return true }
        if let discoveryPrefix, message.topic.hasPrefix(discoveryPrefix) {
            return Self.contains(message.payload, marker)
        }
        return false
    }

    /// `<base>/<alias>/event`, which the bridge publishes and never reads (`<alias>/set/event` is a command).
    func isDeviceEvent(_ topic: String) -> Bool {
        topic.hasSuffix("/event") && topic.hasPrefix(base + "/") && !topic.hasPrefix(base + "/bridge/")
            && CommandTopic.parse(topic, base: base) == nil
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
