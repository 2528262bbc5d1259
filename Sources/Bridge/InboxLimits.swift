public import BridgeCore

/// How much MQTT input the bridge holds before refusing more: the bounds that keep one noisy client from
/// growing memory or delaying other devices' commands.
public struct InboxLimits: Sendable, Equatable {
    /// Live messages waiting in total.
    public var messages: Int
    /// Retained messages waiting (replays at subscribe time: this bridge's own discovery configs).
    public var retainedMessages: Int
    /// Messages waiting per topic, so a flood on one topic leaves room (and turns) for the others.
    public var messagesPerTopic: Int
    /// Payload bytes waiting in total.
    public var bytes: Int
    /// Largest payload kept; a larger one is queued without its bytes, so the sender still gets an error.
    public var payloadBytes: Int
    /// Distinct topics whose refusals are counted one by one; the rest are counted together.
    public var refusalTopics: Int

    /// Creates limits; the defaults hold about a second of a 1,000 message/s burst.
    public init(
        messages: Int = 1024, retainedMessages: Int = 16384, messagesPerTopic: Int = 32, bytes: Int = 32 << 20,
        payloadBytes: Int = JSONLimits.payload.maxBytes,
        refusalTopics: Int = 256
    ) {
        self.messages = messages
        self.retainedMessages = retainedMessages
        self.messagesPerTopic = messagesPerTopic
        self.bytes = bytes
        self.payloadBytes = payloadBytes
        self.refusalTopics = refusalTopics
    }
}

/// Messages the inbox refused since the last report, for one topic and reason.
public struct InboxRefusal: Sendable, Equatable {
    /// Why a message is refused at the door.
    public enum Reason: String, Sendable { case queueFull = "the input queue is full" }
    /// The topic, or `nil` for the topics counted together once `refusalTopics` is reached.
    public var topic: String?
    public var reason: Reason
    public var count: Int

    /// Creates a report line.
    public init(topic: String?, reason: Reason, count: Int) {
        self.topic = topic
        self.reason = reason
        self.count = count
    }
}
