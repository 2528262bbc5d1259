public import BridgeCore

/// Decoded values split into what a device's state holds and what happened (button presses, dimmer turns).
/// Events are published as occurrences: kept in the retained state, a press would fire again at every
/// restart.
public struct SplitMeasurements: Sendable, Equatable {
    /// Everything but events, in order: the state and the throttle take these.
    public var values: [Measurement]
    /// One occurrence per event, keyed by its state key (`button`, `button_3`, `dimmer`).
    public var occurrences: [ExposeEvent]

    /// Splits `measurements`. A dimmer's turn carries the steps decoded with it as `steps`; the steps also stay
    /// a value (`dimmer_steps`), as before events were occurrences.
    public init(_ measurements: [Measurement]) {
        occurrences = []
        // Nearly every advert carries no event: its values are the array as it came, shared rather than copied.
        guard measurements.contains(where: { if case .event = $0.value { true } else { false } }) else {
            values = measurements
            return
        }
        values = []
        for (index, measurement) in measurements.enumerated() {
            guard case .event(let type) = measurement.value else {
                values.append(measurement)
                continue
            }
            var data: [String: JSONValue] = [:]
            // BTHome decodes a dimmer object as its event and then its steps, numbered alike (`dimmer_2`,
            // `dimmer_steps_2`).
            let stepsKey = Quantity.dimmerSteps.key + measurement.key.dropFirst(Quantity.dimmer.key.count)
            if measurement.key.hasPrefix(Quantity.dimmer.key), index + 1 < measurements.count,
                measurements[index + 1].key == stepsKey, let steps = measurements[index + 1].value.number
            {
                data["steps"] = .number(steps)
            }
            occurrences.append(ExposeEvent(measurement.key, type: type, data: data))
        }
    }
}
