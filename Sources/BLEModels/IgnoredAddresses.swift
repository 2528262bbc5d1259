public import Support

/// The addresses seen and not published, kept only to count them: at most `capacity`, each forgotten
/// `expiry` seconds after it was last seen, and the least recently seen dropped first when full. Every
/// operation is amortised constant time, so a flood of random addresses costs little and holds no more.
public struct IgnoredAddresses: Sendable {
    /// The most addresses held.
    public let capacity: Int
    /// Seconds after its last sighting that an address is forgotten.
    public let expiry: Double

    /// When each address was last seen.
    private var lastSeen: [BluetoothAddress: Double] = [:]
    /// Sightings in time order; an entry whose time is no longer its address's `lastSeen` is stale.
    private var order: [(address: BluetoothAddress, at: Double)] = []
    private var head = 0

    /// Creates an empty table; by default 4,096 addresses for five minutes.
    public init(capacity: Int = 4096, expiry: Double = 300) {
        self.capacity = max(capacity, 1)
        self.expiry = expiry.isFinite ? max(expiry, 0) : 300
    }

    /// Records a sighting at `now` (seconds on a monotonic clock).
    public mutating func record(_ address: BluetoothAddress, now: Double) {
        purge(now: now)
        if lastSeen[address] == nil, lastSeen.count >= capacity { evictOldest() }
        lastSeen[address] = now
        order.append((address, now))
        // Refreshed addresses leave stale entries behind; rebuilding from the live ones keeps the queue within
        // a few times the capacity at an amortised constant cost.
        if order.count - head > 2 * capacity + 16 { compact() }
    }

    /// How many addresses were seen and ignored within the expiry; forgets the expired ones first.
    public mutating func count(now: Double) -> Int {
        purge(now: now)
        return lastSeen.count
    }

    /// Whether the address was seen and ignored within the expiry.
    public func contains(_ address: BluetoothAddress, now: Double) -> Bool {
        guard let seen = lastSeen[address] else { return false }
        return now - seen <= expiry
    }

    /// Forgets an address, e.g. once it is published after all.
    public mutating func remove(_ address: BluetoothAddress) {
        lastSeen[address] = nil
    }

    /// Forgets everything, e.g. after the rules change.
    public mutating func removeAll() {
        lastSeen = [:]
        order = []
        head = 0
    }

    private mutating func purge(now: Double) {
        while head < order.count {
            let entry = order[head]
            guard let seen = lastSeen[entry.address], seen == entry.at else {
                head += 1
                continue
            }
            // Times from a clock that went backwards are not trusted to expire anything early.
            guard now - seen > expiry else { break }
            lastSeen[entry.address] = nil
            head += 1
        }
        if head > 1024, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }

    private mutating func evictOldest() {
        while head < order.count {
            let entry = order[head]
            head += 1
            if lastSeen[entry.address] == entry.at {
                lastSeen[entry.address] = nil
                return
            }
        }
    }

    private mutating func compact() {
        order = lastSeen.map { ($0.key, $0.value) }.sorted { $0.at < $1.at }
        head = 0
    }
}
