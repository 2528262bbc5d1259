/// Device state changes gathered over one batch of input and sent as one per device. Sending the gathered
/// change gives the bridge the state that sending each change in turn would, so under a burst (a sensor's
/// adverts queued while the bridge was busy) a device publishes its newest values once per batch instead of
/// once per advert. Only flat changes are gathered: a nested object merges deeply in the bridge, which a
/// gathered copy cannot always repeat, so such a change is handed back to be sent after what was gathered.
public struct StateBatch: Sendable {
    private var order: [DeviceID] = []
    private var states: [DeviceID: [String: JSONValue]] = [:]

    /// An empty batch.
    public init() {}

    /// Whether nothing is gathered.
    public var isEmpty: Bool { states.isEmpty }

    /// Gathers `change` for `id`, its keys replacing earlier ones (a `null`, which clears a key, included).
    /// Returns the changes to send now instead, in order: empty when gathered; for a nested change, what was
    /// gathered for the device first, then the change itself.
    public mutating func add(_ id: DeviceID, _ change: [String: JSONValue]) -> [[String: JSONValue]] {
        if change.values.contains(where: { $0.objectValue != nil }) {
            return (take(id).map { [$0] } ?? []) + [change]
        }
        if states[id] == nil {
            order.append(id)
            states[id] = change
        } else {
            states[id]!.merge(change) { $1 }
        }
        return []
    }

    /// What is gathered for `id`, which is then forgotten; nil if nothing is.
    public mutating func take(_ id: DeviceID) -> [String: JSONValue]? {
        guard let state = states.removeValue(forKey: id) else { return nil }
        order.removeAll { $0 == id }
        return state
    }

    /// Everything gathered, device by device in the order each was first gathered; nothing is left after.
    public mutating func takeAll() -> [(id: DeviceID, state: [String: JSONValue])] {
        defer { order = [] }
        return order.compactMap { id in states.removeValue(forKey: id).map { (id, $0) } }
    }
}
