public import EV3Protocol

/// A sensor on a port: its type, current mode, and the values each mode reads (SI units).
public struct EV3SimulatedSensor: Sendable, Hashable {
    /// The device type GET_TYPEMODE reports.
    public var type: EV3DeviceType
    /// The current mode.
    public var mode: Int8
    /// The values of each mode, indexed by mode number.
    public var values: [[Float]]
    /// The names GET_NAME and GET_MODENAME report, indexed by mode number.
    public var names: [String]
    /// Presses counted since the last clear (the touch sensor's BUMPS mode).
    var bumps: Float { values.count > 1 ? values[1].first ?? 0 : 0 }

    /// A sensor of `type` in mode 0 with plausible readings; nil for types the simulator does not model.
    public init?(_ type: EV3DeviceType) {
        let table: [(String, [Float])]
        switch type {
        case .touch: table = [("TOUCH", [0]), ("BUMPS", [0])]
        case .color:
            table = [
                ("COL-REFLECT", [42]), ("COL-AMBIENT", [12]), ("COL-COLOR", [5]), ("REF-RAW", [420, 380]),
                ("RGB-RAW", [120, 80, 40]), ("COL-CAL", [0]),
            ]
        case .ultrasonic:
            table = [
                ("US-DIST-CM", [25.5]), ("US-DIST-IN", [10]), ("US-LISTEN", [0]), ("US-SI-CM", [25.5]),
                ("US-SI-IN", [10]), ("US-DC-CM", [25.5]), ("US-DC-IN", [10]),
            ]
        case .gyro: table = [("GYRO-ANG", [0]), ("GYRO-RATE", [0]), ("GYRO-FAS", [0]), ("GYRO-G&A", [0, 0]), ("GYRO-CAL", [0])]
        case .infrared:
            table = [
                ("IR-PROX", [50]), ("IR-SEEK", [Float](repeating: 0, count: 8)), ("IR-REMOTE", [0, 0, 0, 0]),
                ("IR-REM-A", [0]), ("IR-S-ALT", [0]), ("IR-CAL", [0]),
            ]
        default: return nil
        }
        self.type = type
        mode = 0
        values = table.map(\.1)
        names = table.map(\.0)
    }

    /// The current mode's values.
    public var current: [Float] { values.indices.contains(Int(mode)) ? values[Int(mode)] : [] }

    /// A reading as READY_PCT gives it: the touch sensor 0 or 100, others their SI value within −100…100.
    static func percent(_ value: Float, type: EV3DeviceType) -> Int8 {
        let scaled = type == .touch ? value * 100 : value
        return Int8(clamping: Int(max(-100, min(100, scaled)).rounded()))
    }
}
