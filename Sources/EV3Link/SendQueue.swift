import EV3Protocol

/// What waits to be sent to one brick, in the order it goes out. Pure, so its rules are tested directly.
///
/// - Requests (polls, LED, sound…) wait in order, at most `limit` of them.
/// - Motor set-points coalesce: a new one for a port replaces the one waiting for that port, in its place,
///   so a slider dragged across its range sends a frame whenever the brick is free, the last one carrying
///   the final value. There is at most one per port.
/// - Stops jump the queue: they go before everything else, and they drop the set-points waiting for their
///   ports (which would otherwise restart the motors after the stop). Stops with the same brake mode merge,
///   so there are at most two.
/// So the queue never holds more than `limit + 4 + 2` entries.
struct EV3SendQueue<Request> {
    /// One thing to send.
    enum Entry {
        case request(Request)
        case motor(EV3OutputPort, EV3MotorCommand)
        case stop(EV3OutputPorts, brake: Bool)
    }

    /// Requests allowed to wait.
    let limit: Int
    private var urgent: [Entry] = []
    private var entries: [Entry] = []
    private var requestCount = 0

    init(limit: Int) { self.limit = limit }

    /// Entries waiting.
    var count: Int { urgent.count + entries.count }
    var isEmpty: Bool { count == 0 }

    /// Adds a request; false (and nothing added) when `limit` requests wait already.
    mutating func push(_ request: Request) -> Bool {
        guard requestCount < limit else { return false }
        requestCount += 1
        entries.append(.request(request))
        return true
    }

    /// Sets a port's motor set-point; true when it replaced one still waiting.
    @discardableResult
    mutating func setMotor(_ port: EV3OutputPort, _ command: EV3MotorCommand) -> Bool {
        for index in entries.indices {
            if case .motor(port, _) = entries[index] {
                entries[index] = .motor(port, command)
                return true
            }
        }
        entries.append(.motor(port, command))
        return false
    }

    /// Queues a stop ahead of everything and drops the waiting set-points of its ports.
    mutating func stop(_ ports: EV3OutputPorts, brake: Bool) {
        entries.removeAll { entry in
            if case .motor(let port, _) = entry { return ports.contains(port.set) }
            return false
        }
        for index in urgent.indices {
            if case .stop(let waiting, brake) = urgent[index] {
                urgent[index] = .stop(waiting.union(ports), brake: brake)
                return
            }
        }
        urgent.append(.stop(ports, brake: brake))
    }

    /// The next entry to send.
    mutating func popFirst() -> Entry? {
        if !urgent.isEmpty { return urgent.removeFirst() }
        guard !entries.isEmpty else { return nil }
        let entry = entries.removeFirst()
        if case .request = entry { requestCount -= 1 }
        return entry
    }

    /// Empties the queue for a lost connection: returns the requests (to fail them) and drops motion, so a
    /// reconnect never replays a set-point or stop meant for the old connection.
    mutating func drain() -> [Request] {
        let requests = entries.compactMap { entry -> Request? in
            if case .request(let request) = entry { return request }
            return nil
        }
        urgent.removeAll()
        entries.removeAll()
        requestCount = 0
        return requests
    }
}
