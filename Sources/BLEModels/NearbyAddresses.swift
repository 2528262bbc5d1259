public import Support

/// The addresses heard lately that are not devices yet, with their name and signal, for the BLE page's list of
/// what is in range: at most `capacity`, each forgotten `expiry` seconds after it was last heard. When full, the
/// longest silent quarter goes at once, so a flood of random addresses costs an amortised `log n` per advert.
public struct NearbyAddresses: Sendable {
    /// One address as last heard.
    public struct Entry: Sendable, Equatable {
        public var address: BluetoothAddress
        public var name: String?
        /// dBm; nil until an advert carried one.
        public var rssi: Int?
        /// Seconds on the caller's monotonic clock.
        public var lastSeen: Double
    }

    /// The most addresses held.
    public let capacity: Int
    /// Seconds after its last sighting that an address is forgotten.
    public let expiry: Double
    private var entries: [BluetoothAddress: Entry] = [:]

    /// Creates an empty table; by default 256 addresses for two minutes.
    public init(capacity: Int = 256, expiry: Double = 120) {
        self.capacity = max(capacity, 1)
        self.expiry = expiry.isFinite ? max(expiry, 0) : 120
    }

    /// Records a sighting at `now`; a name or signal the advert lacks keeps the one heard before.
    public mutating func record(_ address: BluetoothAddress, name: String?, rssi: Int?, now: Double) {
        if var entry = entries[address] {
            entry.name = name ?? entry.name
            entry.rssi = rssi ?? entry.rssi
            entry.lastSeen = now
            entries[address] = entry
            return
        }
        if entries.count >= capacity { evict(now: now) }
        entries[address] = Entry(address: address, name: name, rssi: rssi, lastSeen: now)
    }

    /// Forgets an address, e.g. once it is a device.
    public mutating func remove(_ address: BluetoothAddress) { entries[address] = nil }

    /// Forgets everything.
    public mutating func removeAll() { entries = [:] }

    /// Up to `limit` addresses heard within the expiry: the strongest first, the unmeasured last, then the most recent.
    public func strongest(_ limit: Int, now: Double) -> [Entry] {
        entries.values.filter { now - $0.lastSeen <= expiry }
            .sorted { ($0.rssi ?? .min, $0.lastSeen) > ($1.rssi ?? .min, $1.lastSeen) }
            .prefix(max(limit, 0)).map { $0 }
    }

    private mutating func evict(now: Double) {
        entries = entries.filter { now - $0.value.lastSeen <= expiry }
        guard entries.count >= capacity else { return }
        let silent = entries.values.sorted { $0.lastSeen < $1.lastSeen }.prefix(max(1, capacity / 4))
        for entry in silent { entries[entry.address] = nil }
    }
}
