/// One device's readings not yet weighed by its `StateThrottle` (see `ReadingPacer`): the newest value of each
/// key, in the order the keys first came, and the newest RSSI. A sensor heard ten times before it is weighed is
/// then weighed once, with its final values, instead of ten times with values already stale.
public struct PendingReadings: Sendable, Equatable {
    /// The newest value of each key (events never: they are occurrences, published as they come).
    public private(set) var values: [Measurement] = []
    /// The newest RSSI an advert of the batch carried, if any.
    public private(set) var rssi: Int?

    /// Creates empty readings.
    public init() {}

    /// Adds an advert's values and RSSI: a key already held takes the new value in its old position.
    public mutating func add(_ new: [Measurement], rssi newRSSI: Int?) {
        for measurement in new {
            if let index = values.firstIndex(where: { $0.key == measurement.key }) {
                values[index] = measurement
            } else {
                values.append(measurement)
            }
        }
        if let newRSSI { rssi = newRSSI }
    }
}
