import BridgeCore

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

    /// Entries waiting (a coalesced state counts once).
    var depth: Int { entries.count - head }

    /// Queues an input that is never refused; state changes merge into the device's waiting one.
    mutating func push(_ input: BridgeInput) {
        guard case .device(let event) = input else { return append(.input(input)) }
        switch event {
        case .state(let id, let values):
            if let token = openState[id], var waiting = states[token],
                let composed = waiting.values.composing(stateChange: values)
            {
                waiting.values = composed
                states[token] = waiting
                return
            }
            let token = nextToken
            nextToken += 1
            states[token] = (id, values)
            openState[id] = token
            append(.state(token: token))
        case .heard:
            // Not ordered against the device's state: the state waiting stays open for merging.
            append(.input(input))
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
        case .removed(let id), .state(let id, _), .status(let id, _, _, _), .occurred(let id, _), .event(let id, _), .heard(let id, _, _, _): id
        case .integrationStatus, .inventoryComplete, .connectionSlots, .adapters: nil
        }
    }
}
