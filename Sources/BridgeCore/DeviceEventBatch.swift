/// The events a driver gathers while it handles one batch of input, in order, where a device's state may keep
/// its place until the batch ends: the driver then knows the device's final values and weighs them once. A
/// state so placed goes where the device's first reading came, the order the bridge's inbox keeps when it
/// merges a device's states.
public struct DeviceEventBatch: Sendable {
    private var events: [DeviceEvent?] = []

    /// Creates an empty batch.
    public init() {}

    /// Adds an event after those already held.
    public mutating func append(_ event: DeviceEvent) { events.append(event) }

    /// Keeps a place after the events held for one that comes later; returns it for `fill(_:with:)`.
    public mutating func reserve() -> Int {
        events.append(nil)
        return events.count - 1
    }

    /// Puts an event in a place kept by `reserve()`; a place never filled is left out.
    public mutating func fill(_ place: Int, with event: DeviceEvent) {
        guard events.indices.contains(place) else { return }
        events[place] = event
    }

    /// The events in order, without the places left empty.
    public var sealed: [DeviceEvent] { events.compactMap { $0 } }
}
