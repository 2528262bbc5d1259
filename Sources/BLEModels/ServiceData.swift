/// Service data by UUID, as an advert carries it: one entry nearly always, a few at most. Kept as a short list
/// whose first entry is stored inline and found by comparing UUIDs: a dictionary would allocate its table and
/// hash the UUID for each advert and each of the half-dozen lookups the decoders make.
public struct ServiceData: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One UUID and its payload.
    public typealias Element = (key: BLEUUID, value: [UInt8])

    private var head: Element?
    private var tail: [Element] = []

    /// No service data.
    public init() {}

    /// The entries listed; of two with the same UUID, the later wins.
    public init(dictionaryLiteral elements: (BLEUUID, [UInt8])...) {
        for (uuid, bytes) in elements { self[uuid] = bytes }
    }

    /// The entries of a dictionary.
    public init(_ dictionary: [BLEUUID: [UInt8]]) {
        for (uuid, bytes) in dictionary { self[uuid] = bytes }
    }

    /// How many UUIDs carry data.
    public var count: Int { head == nil ? 0 : 1 + tail.count }

    /// Whether there is no service data.
    public var isEmpty: Bool { head == nil }

    /// The UUIDs, in the order first set.
    public var keys: [BLEUUID] { map(\.key) }

    /// The payload under `uuid`; setting nil removes it.
    public subscript(uuid: BLEUUID) -> [UInt8]? {
        get {
            guard let head else { return nil }
            if head.key == uuid { return head.value }
            for entry in tail where entry.key == uuid { return entry.value }
            return nil
        }
        set {
            if head?.key == uuid {
                head = newValue.map { (uuid, $0) } ?? (tail.isEmpty ? nil : tail.removeFirst())
            } else if let at = tail.firstIndex(where: { $0.key == uuid }) {
                if let newValue { tail[at].value = newValue } else { tail.remove(at: at) }
            } else if let newValue {
                if head == nil { head = (uuid, newValue) } else { tail.append((uuid, newValue)) }
            }
        }
    }

    /// The entries, in the order first set.
    public func makeIterator() -> Iterator { Iterator(data: self) }

    /// Walks the entries, the inline one first.
    public struct Iterator: IteratorProtocol {
        fileprivate let data: ServiceData
        private var position = 0

        fileprivate init(data: ServiceData) { self.data = data }

        /// The next entry, or nil after the last.
        public mutating func next() -> Element? {
            defer { position += 1 }
            if position == 0 { return data.head }
            return position <= data.tail.count ? data.tail[position - 1] : nil
        }
    }

    /// The same UUIDs with the same payloads, in any order.
    public static func == (lhs: ServiceData, rhs: ServiceData) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.key] == $0.value }
    }

    /// Hashes the entries whatever their order, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        var entries = 0
        for (uuid, bytes) in self {
            var entry = Hasher()
            entry.combine(uuid)
            entry.combine(bytes)
            entries ^= entry.finalize()
        }
        hasher.combine(count)
        hasher.combine(entries)
    }
}
