import BridgeCore

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
        messages: Int = 1024, retainedMessages: Int = 16384, messagesPerTopic: Int = 32, bytes: Int = 8 << 20, payloadBytes: Int = 256 << 10,
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

/// The inbox's FIFO without the waiting: coalesces driver state per device and bounds MQTT messages.
struct InboxQueue {
    enum Entry {
        case input(BridgeInput)
        case state(token: Int)
        case message(InboundMessage)
        case refusalReport
    }

    struct RefusalKey: Hashable {
        var topic: String?
        var reason: InboxRefusal.Reason
    }

    let limits: InboxLimits
    private var entries: [Entry] = []
    private var head = 0
    /// Coalesced state waiting at a queue position, by token.
    private var states: [Int: (id: DeviceID, values: [String: JSONValue])] = [:]
    /// The token still open for merging, per device; closed by any other event for that device.
    private var openState: [DeviceID: Int] = [:]
    private var nextToken = 0
    private var perTopic: [String: Int] = [:]
    private var queuedMessages = 0
    private var queuedRetained = 0
    private var queuedBytes = 0
    private var refusals: [RefusalKey: Int] = [:]
    private var refusalReportQueued = false

    init(limits: InboxLimits) { self.limits = limits }

    var isEmpty: Bool { head == entries.count }

    /// Queues an input that is never refused; state changes merge into the device's waiting one.
    mutating func push(_ input: BridgeInput) {
        guard case .device(let event) = input else { return append(.input(input)) }
        switch event {
        case .state(let id, let values):
            if let token = openState[id], var waiting = states[token] {
                // Overlays compose key by key; a later null must survive so it still deletes the key.
                for (key, value) in values { waiting.values[key] = value }
                states[token] = waiting
                return
            }
            let token = nextToken
            nextToken += 1
            states[token] = (id, values)
            openState[id] = token
            append(.state(token: token))
        default:
            if let id = event.deviceID { openState[id] = nil }
            append(.input(input))
        }
    }

    /// Queues a broker message unless a bound is reached; a refusal is counted for the next report.
    mutating func offer(_ message: InboundMessage) -> Bool {
        var message = message
        if message.payload.count > limits.payloadBytes {
            message.droppedPayloadSize = message.payload.count
            message.payload = []
        }
        let size = message.payload.count + message.topic.utf8.count
        var reason: InboxRefusal.Reason?
        if message.retained ? queuedRetained >= limits.retainedMessages : queuedMessages >= limits.messages {
            reason = .queueFull
        } else if queuedBytes + size > limits.bytes || perTopic[message.topic, default: 0] >= limits.messagesPerTopic {
            reason = .queueFull
        }
        if let reason {
            refuse(message.topic, reason)
            return false
        }
        perTopic[message.topic, default: 0] += 1
        if message.retained { queuedRetained += 1 } else { queuedMessages += 1 }
        queuedBytes += size
        append(.message(message))
        return true
    }

    /// Takes the oldest input.
    mutating func pop() -> BridgeInput? {
        guard head < entries.count else { return nil }
        let entry = entries[head]
        head += 1
        if head >= 1024, head * 2 >= entries.count {
            entries.removeFirst(head)
            head = 0
        }
        switch entry {
        case .input(let input): return input
        case .state(let token):
            guard let waiting = states.removeValue(forKey: token) else { return pop() }
            if openState[waiting.id] == token { openState[waiting.id] = nil }
            return .device(.state(waiting.id, waiting.values))
        case .message(let message):
            let size = message.payload.count + message.topic.utf8.count
            if message.retained { queuedRetained -= 1 } else { queuedMessages -= 1 }
            queuedBytes -= size
            if perTopic[message.topic, default: 1] <= 1 { perTopic[message.topic] = nil } else { perTopic[message.topic]! -= 1 }
            return .transport(.message(message))
        case .refusalReport:
            refusalReportQueued = false
            let report = refusals.map { InboxRefusal(topic: $0.key.topic, reason: $0.key.reason, count: $0.value) }
            refusals = [:]
            return .refused(report.sorted { ($0.topic ?? "") < ($1.topic ?? "") })
        }
    }

    private mutating func refuse(_ topic: String, _ reason: InboxRefusal.Reason) {
        var key = RefusalKey(topic: topic, reason: reason)
        if refusals[key] == nil, refusals.count >= limits.refusalTopics { key.topic = nil }
        refusals[key, default: 0] += 1
        if !refusalReportQueued {
            refusalReportQueued = true
            append(.refusalReport)
        }
    }

    private mutating func append(_ entry: Entry) { entries.append(entry) }
}

extension DeviceEvent {
    /// The device an event is about, if it is about one.
    var deviceID: DeviceID? {
        switch self {
        case .discovered(let descriptor): descriptor.id
        case .removed(let id), .state(let id, _), .availability(let id, _), .commandFailed(let id, _): id
        case .integrationStatus, .inventoryComplete: nil
        }
    }
}
