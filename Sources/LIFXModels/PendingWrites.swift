public import BridgeCore

/// One write the driver owes the API.
public enum LIFXOperation: Sendable, Equatable {
    case state(LIFXStateChange)
    case effect(name: String, body: JSONValue)
    case scene(uuid: String)
}

/// Writes waiting to be sent, per selector, in order. Consecutive state changes to one selector merge, so a
/// burst costs one request; state changes to several selectors go out together as one batch.
public struct PendingWrites: Sendable {
    private var queues: [String: [LIFXOperation]] = [:]
    private var order: [String] = []

    /// An empty queue.
    public init() {}

    /// Whether anything waits.
    public var isEmpty: Bool { order.isEmpty }

    /// Selectors with pending work, oldest first.
    public var selectors: [String] { order }

    /// Whether work for this selector waits.
    public func contains(_ selector: String) -> Bool { queues[selector] != nil }

    /// Adds an operation, merging it into a pending state change for the same selector.
    public mutating func enqueue(_ operation: LIFXOperation, for selector: String) {
        var queue = queues[selector] ?? []
        if case .state(let later) = operation, case .state(let earlier)? = queue.last {
            queue[queue.count - 1] = .state(earlier.merged(with: later))
        } else {
            queue.append(operation)
        }
        if queues[selector] == nil { order.append(selector) }
        queues[selector] = queue
    }

    /// Takes the next request's worth: every selector whose next operation is a state change (one batch),
    /// or failing that the oldest effect or scene activation.
    public mutating func takeNext() -> [(selector: String, operation: LIFXOperation)] {
        let states = order.compactMap { selector -> (String, LIFXOperation)? in
            guard case .state? = queues[selector]?.first else { return nil }
            return (selector, queues[selector]!.first!)
        }
        let taken = states.isEmpty ? Array(order.prefix(1).map { ($0, queues[$0]!.first!) }) : states
        for (selector, _) in taken { dropFirst(selector) }
        return taken.map { (selector: $0.0, operation: $0.1) }
    }

    /// Puts operations back at the front, e.g. after a 429, merging with anything that arrived since.
    public mutating func requeue(_ items: [(selector: String, operation: LIFXOperation)]) {
        for (selector, operation) in items.reversed() {
            var queue = queues[selector] ?? []
            if case .state(let earlier) = operation, case .state(let later)? = queue.first {
                queue[0] = .state(earlier.merged(with: later))
            } else {
                queue.insert(operation, at: 0)
            }
            if queues[selector] == nil { order.insert(selector, at: 0) }
            queues[selector] = queue
        }
    }

    /// Whether a selector has pending work.
    public func hasPending(_ selector: String) -> Bool { queues[selector] != nil }

    private mutating func dropFirst(_ selector: String) {
        guard var queue = queues[selector] else { return }
        queue.removeFirst()
        if queue.isEmpty {
            queues[selector] = nil
            order.removeAll { $0 == selector }
        } else {
            queues[selector] = queue
        }
    }
}
