/// Decides, per device, whether new values are worth publishing its state, so a sensor that advertises ten
/// times a second does not publish ten times a second. Without I/O; times are seconds on a monotonic clock.
///
/// A publish is due when
/// - nothing was published yet;
/// - a value moved by its quantity's `ChangeRule` against the value last *published* (so a slow drift
///   adds up and is published once it is large enough), or an event happened;
/// - `stateInterval` passed since the last publish, whatever the values;
/// - otherwise, when only the signal moved (RSSI, or a quantity with the `signal` rule), and `signalInterval`
///   passed since a publish last carried the signal.
///
/// Every publish carries the device's whole state (the bridge publishes merged state), so whatever the reason,
/// all values offered become the published ones.
public struct StateThrottle: Sendable {
    /// Why a publish is due.
    public enum Reason: Sendable, Hashable {
        /// The first values of the device.
        case first
        /// These keys moved enough, or are events.
        case changed([String])
        /// `stateInterval` passed.
        case interval
        /// Only the signal moved, and `signalInterval` passed.
        case signal
    }

    /// The longest time between publishes while values keep arriving, in seconds (`ble.state_interval`).
    public let stateInterval: Double
    /// The shortest time between publishes for the signal alone, in seconds (`ble.rssi_interval`).
    public let signalInterval: Double
    private var published: [String: MeasuredValue] = [:]
    private var publishedRSSI: Int?
    private var lastPublish: Double?
    private var lastSignalPublish: Double?

    /// Creates a throttle that has published nothing.
    public init(stateInterval: Double = 60, signalInterval: Double = 60) {
        self.stateInterval = stateInterval.isFinite ? max(stateInterval, 0) : 60
        self.signalInterval = signalInterval.isFinite ? max(signalInterval, 0) : 60
    }

    /// Offers new values (and the advert's RSSI, if any) at `now`; returns why a publish is due, or nil to skip
    /// it. When due, the values are taken as published.
    public mutating func offer(_ measurements: [Measurement], rssi: Int? = nil, now: Double) -> Reason? {
        guard let reason = reason(measurements, rssi: rssi, now: now) else { return nil }
        for measurement in measurements {
            if case .event = measurement.value { continue }
            published[measurement.key] = measurement.value
        }
        if let rssi { publishedRSSI = rssi }
        lastPublish = now
        lastSignalPublish = now
        return reason
    }

    /// Forgets what was published, e.g. after the device was unavailable: the next values publish at once.
    public mutating func reset() {
        published = [:]
        publishedRSSI = nil
        lastPublish = nil
        lastSignalPublish = nil
    }

    private func reason(_ measurements: [Measurement], rssi: Int?, now: Double) -> Reason? {
        guard let lastPublish else { return .first }
        let changed = measurements.filter { moved($0, beyond: $0.quantity.change) }.map(\.key)
        if !changed.isEmpty { return .changed(changed) }
        if now - lastPublish >= stateInterval { return .interval }
        let rssiMoved = rssi != nil && rssi != publishedRSSI
        let signalMoved = rssiMoved || measurements.contains { $0.quantity.change == .signal && moved($0, beyond: .any) }
        if signalMoved, now - (lastSignalPublish ?? lastPublish) >= signalInterval { return .signal }
        return nil
    }

    /// Whether a value differs from the one last published by more than the rule allows.
    private func moved(_ measurement: Measurement, beyond rule: Quantity.ChangeRule) -> Bool {
        if case .event = measurement.value { return true }
        guard let old = published[measurement.key] else { return rule != .quiet && rule != .signal }
        switch rule {
        case .quiet, .signal: return false
        case .any, .always: return old != measurement.value
        case .threshold(let absolute, let relative):
            guard case .number(let new) = measurement.value, case .number(let before) = old else {
                return old != measurement.value
            }
            // The tolerance keeps "at least 0.1" true for 25.1 against 25.0 despite binary fractions.
            return new != before && abs(new - before) >= max(absolute, relative * abs(before)) - 1e-9
        }
    }
}
