import BridgeCore
import EV3Protocol

/// What a sensor's readings (READY_SI values, in its current mode) become: the keys in its port's state, and
/// the exposes that describe them, with the Home Assistant class each deserves.
enum SensorValues {
    /// The colour sensor's colour numbers 0–7 by name.
    static let colors = ["none", "black", "blue", "green", "yellow", "red", "white", "brown"]

    /// One value of a mode: its key, how it reads, and which of the mode's values it is.
    struct Field {
        var expose: Expose
        var index: Int
        var convert: @Sendable (Float) -> JSONValue
    }

    /// The fields of a device in a mode; a mode (or device) without a name here reads as its first value.
    static func fields(_ device: AttachedDevice) -> [Field] {
        guard let mode = device.namedMode else {
            return [Field(expose: .numeric("value", name: "Value", stateClass: "measurement"), index: 0, convert: number)]
        }
        switch mode {
        case .touch: return [binary("pressed", "Pressed", nil)]
        case .bumps: return [Field(expose: .numeric("bumps", name: "Bumps", stateClass: "total_increasing"), index: 0, convert: whole)]
        case .reflected: return [percent("reflected", "Reflected light")]
        case .ambient: return [percent("ambient", "Ambient light")]
        case .color:
            let expose = Expose.enumeration("color", name: "Color", values: colors)
            return [Field(expose: expose, index: 0) { value in
                let number = Int(value.rounded())
                return colors.indices.contains(number) ? .string(colors[number]) : .null
            }]
        case .rgb:
            return ["red", "green", "blue"].enumerated().map { index, key in
                Field(expose: .numeric(key, name: key.capitalized, stateClass: "measurement"), index: index, convert: whole)
            }
        case .distance: return [distance("cm")]
        case .distanceInches: return [distance("in")]
        case .listen: return [binary("heard", "Heard", "sound")]
        case .angle: return [angle(0)]
        case .rate: return [rate(0)]
        case .angleAndRate: return [angle(0), rate(1)]
        case .proximity: return [percent("proximity", "Proximity")]
        case .seek:
            return [
                Field(expose: .numeric("heading", name: "Beacon heading", stateClass: "measurement"), index: 0, convert: whole),
                Field(
                    expose: .numeric("beacon_distance", name: "Beacon distance", unit: "%", stateClass: "measurement"),
                    index: 1, convert: whole),
            ]
        case .remote:
            return [Field(expose: .numeric("remote", name: "Remote buttons", stateClass: "measurement"), index: 0, convert: whole)]
        }
    }

    /// How many values a read in the device's current mode returns.
    static func valueCount(_ device: AttachedDevice) -> Int {
        max(1, fields(device).map { $0.index + 1 }.max() ?? 1, device.namedMode?.valueCount ?? 1)
    }

    /// The port's values from a reading: each field's value, `null` where the brick had none.
    static func state(_ device: AttachedDevice, _ values: [Float?]) -> [String: JSONValue] {
        var state: [String: JSONValue] = [:]
        for field in fields(device) {
            let value = values.indices.contains(field.index) ? values[field.index] : nil
            state[field.expose.property] = value.map(field.convert) ?? .null
        }
        return state
    }

    private static func binary(_ key: String, _ name: String, _ deviceClass: String?) -> Field {
        Field(expose: .binary(key, name: name, deviceClass: deviceClass), index: 0) { .string($0 >= 0.5 ? "ON" : "OFF") }
    }

    private static func percent(_ key: String, _ name: String) -> Field {
        Field(expose: .numeric(key, name: name, unit: "%", stateClass: "measurement"), index: 0, convert: whole)
    }

    private static func distance(_ unit: String) -> Field {
        let expose = Expose.numeric("distance", name: "Distance", unit: unit, deviceClass: "distance", stateClass: "measurement")
        return Field(expose: expose, index: 0, convert: tenth)
    }

    private static func angle(_ index: Int) -> Field {
        Field(expose: .numeric("angle", name: "Angle", unit: "°", stateClass: "measurement"), index: index, convert: whole)
    }

    private static func rate(_ index: Int) -> Field {
        Field(expose: .numeric("rate", name: "Rate", unit: "°/s", stateClass: "measurement"), index: index, convert: whole)
    }

    @Sendable private static func whole(_ value: Float) -> JSONValue { .number(Double(value.rounded())) }
    @Sendable private static func tenth(_ value: Float) -> JSONValue { .number((Double(value) * 10).rounded() / 10) }
    @Sendable private static func number(_ value: Float) -> JSONValue { .number((Double(value) * 1000).rounded() / 1000) }
}
