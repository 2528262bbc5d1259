import BLEModels
import DBus
import Synchronization

/// The one hand-over from the D-Bus loop thread to the code that follows BlueZ: BlueZ's signals wait here
/// merged per object path, the newest value of each property winning, so a burst of RSSI changes leaves one
/// waiting entry per device however fast it comes. Advert payloads (service and manufacturer data) are each
/// decoded as they came (a packet id, a button press): a device's service data adverts fold into one change
/// that keeps the older payloads in order (`DeviceChange.earlier`), so the record is updated once; other
/// payloads wait one entry each. Service data under the UUIDs the reader names as holding only state (a
/// thermometer's readings) is the exception: the newer payload replaces the older, as it says all the older
/// did. Structural signals (interfaces added or removed) keep their order among a path's changes. Bounded:
/// past `maxPaths` waiting paths a signal is dropped, and past `maxPerPath` entries (each waiting payload
/// counts) of one path, or `maxEntries` in all, the oldest advert payload of the path that grows gives way (so
/// its newest values still get through); both are counted.
final class SignalMailbox: DBusSignalSink {
    /// What waits for one path, in order.
    enum Item: Sendable {
        /// Merged `PropertiesChanged` of a device, the advert properties typed.
        case device(DeviceChange)
        /// Merged `PropertiesChanged` of another interface.
        case properties(interface: String, changed: [String: DBusValue], invalidated: Set<String>)
        /// Any other signal, as it came.
        case signal(DBusSignal)
    }

    static let maxPaths = 4096
    /// Room for the adverts of one device that come while the driver is busy with a batch: at 1,000 a second,
    /// over 100 ms.
    static let maxPerPath = 128
    /// All entries together, so many busy devices cannot hold `maxPaths` × `maxPerPath` of them.
    static let maxEntries = 16_384

    /// News about bluetoothd itself, handed over before any signal.
    enum Note: Sendable, Equatable {
        /// `org.bluez` has a new owner, or (nil) none.
        case owner(String?)
        /// The bus refused the subscription.
        case failed(String)
    }

    /// At most this many notes wait; past it the oldest gives way (only the latest owner matters).
    static let maxNotes = 4

    private struct State {
        var order: [String] = []
        var waiting: [String: [Item]] = [:]
        /// Entries waiting under all paths.
        var entries = 0
        var dropped = 0
        /// The bell rang since the last drain: one ring wakes the reader, more only cost the loop thread.
        var rung = false
        var notes: [Note] = []
    }

    private let state = Mutex(State())
    /// Service data UUIDs whose payloads hold only state: a newer one replaces one waiting.
    private let superseding: Set<BLEUUID>
    private let bell: AsyncStream<Void>.Continuation
    /// Rings (at most one ring waits) whenever something was put in; finishes with the subscription.
    let rings: AsyncStream<Void>

    /// Creates an empty mailbox; payloads under `superseding` UUIDs replace the one waiting before them.
    init(superseding: Set<BLEUUID> = []) {
        self.superseding = superseding
        (rings, bell) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Loop thread: merges the signal in and rings.
    func receive(_ signal: DBusSignal) {
        // Interfaces added or removed are kept with the object they name, so a device's changes stay in order.
        let path = signal.member.hasPrefix("Interfaces") ? signal.body.first?.objectPath ?? signal.path : signal.path
        put(Self.item(signal), at: path)
    }

    /// Loop thread: a device's `PropertiesChanged` (nearly every signal in an advert burst) is read straight into
    /// a `DeviceChange`; anything else is left to `receive(_:)`.
    func receive(_ header: DBusSignalHeader, body: inout DBusBodyReader) -> Bool {
        guard header.member == "PropertiesChanged", header.interface == Self.properties else { return false }
        // An advert's usual shape is read from the wire form; any other with libdbus's iterator, to the same result.
        guard
            let change = body.marshalled({ DeviceChange(wire: &$0) })
                ?? (body.readString(equalTo: BlueZInterface.device) ? DeviceChange(reading: &body) : nil)
        else { return false }
        put(.device(change), at: header.path)
        return true
    }

    private static let properties = "org.freedesktop.DBus.Properties"

    private func put(_ item: Item, at path: String) {
        let ring = state.withLock { state -> Bool in
            guard Self.put(item, at: path, into: &state, superseding: superseding), !state.rung else { return false }
            state.rung = true
            return true
        }
        if ring { bell.yield() }
    }

    /// Merges the item in under its path; false if it was dropped.
    private static func put(_ item: Item, at path: String, into state: inout State, superseding: Set<BLEUUID>) -> Bool {
        // One lookup of the path; its entries are then changed where they are stored, not copied.
        guard let index = state.waiting.index(forKey: path) else {
            guard state.order.count < Self.maxPaths, state.entries < Self.maxEntries else { return Self.drop(&state) }
            state.order.append(path)
            state.waiting[path] = [item]
            state.entries += Self.weight(item)
            return true
        }
        let full = state.entries >= Self.maxEntries
        let (kept, added) = Self.merge(
            item, into: &state.waiting.values[index], full: full, superseding: superseding, dropped: &state.dropped)
        state.entries += added
        return kept
    }

    /// Puts one more signal behind a path's waiting ones: a property change merges into the last one of its
    /// interface unless both carry an advert payload (for a device, one that does not supersede the other, and
    /// service data folds in keeping the older payload); past `maxPerPath`, or when the mailbox is `full`, the
    /// oldest advert payload gives way. Whether the signal was kept, and how many entries the path gained.
    private static func merge(
        _ item: Item, into items: inout [Item], full: Bool, superseding: Set<BLEUUID>, dropped: inout Int
    ) -> (kept: Bool, added: Int) {
        if case .device(let change) = item, case .device(let last)? = items.last {
            let plain = !(change.carriesAdvert && last.carriesAdvert) || change.supersedes(last, under: superseding)
            if plain || change.folds(onto: last) {
                // Taken out while it changes, so the payloads it holds are not copied for the change.
                guard case .device(var merged) = items.removeLast() else { return (false, 0) }
                var added = change.earlier.count
                if plain {
                    merged.merge(change)
                } else if !(full || weight(items) + 1 + merged.earlier.count >= maxPerPath) {
                    merged.fold(change)
                    added += 1
                } else {
                    // Full: the oldest payload gives way (the newest always gets through); with none older
                    // than the waiting change's own, the new one replaces it.
                    dropped += 1
                    if dropOldestPayload(&items) {
                        merged.fold(change)
                    } else if !merged.earlier.isEmpty {
                        merged.earlier.removeFirst()
                        merged.fold(change)
                    } else {
                        merged.merge(change)
                    }
                }
                items.append(.device(merged))
                return (true, added)
            }
        }
        if case .properties(let interface, let changed, let invalidated) = item,
            case .properties(interface, var merged, var gone)? = items.last,
            !(carriesAdvert(changed) && carriesAdvert(merged))
        {
            merged.merge(changed) { $1 }
            for key in invalidated { merged[key] = nil }
            gone.subtract(changed.keys)
            items[items.count - 1] = .properties(interface: interface, changed: merged, invalidated: gone.union(invalidated))
            return (true, 0)
        }
        if full || weight(items) >= maxPerPath {
            // Full: the oldest advert payload gives way, so the newest values always get through.
            dropped += 1
            guard dropOldestPayload(&items) else { return (false, 0) }
            items.append(item)
            return (true, weight(item) - 1)
        }
        items.append(item)
        return (true, weight(item))
    }

    /// The entries an item counts for: one, and one more for each advert folded into it.
    private static func weight(_ item: Item) -> Int {
        if case .device(let change) = item { 1 + change.earlier.count } else { 1 }
    }

    private static func weight(_ items: [Item]) -> Int {
        items.reduce(0) { $0 + weight($1) }
    }

    /// Takes the oldest advert payload out of a path's entries: the first folded into the oldest entry that carries
    /// one, else that entry itself; false if none carries one.
    private static func dropOldestPayload(_ items: inout [Item]) -> Bool {
        guard let oldest = items.firstIndex(where: carriesAdvert) else { return false }
        if case .device(var change) = items[oldest], !change.earlier.isEmpty {
            change.earlier.removeFirst()
            items[oldest] = .device(change)
        } else {
            items.remove(at: oldest)
        }
        return true
    }

    /// Ends the feed: the reader takes what is left, then stops.
    func finish() { bell.finish() }

    /// Puts news about bluetoothd in and rings.
    func note(_ note: Note) {
        state.withLock { state in
            if state.notes.count >= Self.maxNotes { state.notes.removeFirst() }
            state.notes.append(note)
        }
        bell.yield()
    }

    /// The news waiting, oldest first; none waits after.
    func takeNotes() -> [Note] {
        state.withLock { state in
            defer { state.notes = [] }
            return state.notes
        }
    }

    /// Every signal waiting, object by object in the order each one's first entry came, and the drops counted so
    /// far; no signal waits after (news stays).
    func drain() -> (items: [(path: String, items: [Item])], dropped: Int) {
        state.withLock { state in
            let items = state.order.compactMap { path in state.waiting[path].map { (path, $0) } }
            // Emptied keeping their room: a burst's next batch brings about as many paths again.
            defer {
                state.order.removeAll(keepingCapacity: true)
                state.waiting.removeAll(keepingCapacity: true)
                state.entries = 0
                state.rung = false
                state.dropped = 0
            }
            return (items, state.dropped)
        }
    }

    /// Advert payloads are decoded one by one as they came (a packet id, a button press): two are never merged.
    /// Compared key by key rather than hashed: a change carries a handful of keys.
    private static func carriesAdvert(_ properties: [String: DBusValue]) -> Bool {
        properties.keys.contains { $0 == "ServiceData" || $0 == "ManufacturerData" || $0 == "AdvertisingData" }
    }

    private static func carriesAdvert(_ item: Item) -> Bool {
        switch item {
        case .device(let change): change.carriesAdvert
        case .properties(_, let changed, _): carriesAdvert(changed)
        case .signal: false
        }
    }

    private static func drop(_ state: inout State) -> Bool {
        state.dropped += 1
        return false
    }

    private static func item(_ signal: DBusSignal) -> Item {
        guard signal.interface == Self.properties, signal.member == "PropertiesChanged",
            signal.body.count >= 2, let interface = signal.body[0].string, let changed = signal.body[1].dictionary
        else { return .signal(signal) }
        let invalidated = signal.body.count >= 3 ? Set(signal.body[2].array?.compactMap(\.string) ?? []) : []
        if interface == BlueZInterface.device { return .device(DeviceChange(changed, invalidated: invalidated)) }
        return .properties(interface: interface, changed: changed, invalidated: invalidated)
    }
}
