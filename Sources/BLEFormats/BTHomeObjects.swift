/// One BTHome v2 object id: how its value is encoded and what it measures. The value of a number is
/// `raw × multiplier / divisor`; dividing by a power of ten (rather than multiplying by 0.01) gives the nearest
/// double to the decimal, so 5055 reads as exactly `50.55`.
struct BTHomeObject: Sendable {
    enum Encoding: Sendable {
        /// A little-endian integer of this many bytes.
        case unsigned(Int), signed(Int)
        /// One byte, 0 or 1.
        case binary
        /// One byte: an event code.
        case button
        /// Two bytes: an event code and a step count.
        case dimmer
        /// A length byte, then that many bytes: UTF-8 text, or raw bytes.
        case text, raw
        /// Four bytes: seconds since 1970 (UTC).
        case timestamp
    }

    let encoding: Encoding
    let quantity: Quantity
    var multiplier = 1
    var divisor = 1
}

/// The event codes of BTHome buttons and dimmers.
public enum BTHomeEvents {
    /// Button event codes and their names; 0x00 is "no event".
    public static let button: [(code: UInt8, name: String)] = [
        (0x01, "press"), (0x02, "double_press"), (0x03, "triple_press"), (0x04, "long_press"),
        (0x05, "long_double_press"), (0x06, "long_triple_press"), (0x80, "hold_press"),
    ]
    /// Dimmer event codes and their names; 0x00 is "no event".
    public static let dimmer: [(code: UInt8, name: String)] = [(0x01, "rotate_left"), (0x02, "rotate_right")]
}

/// The BTHome v2 binary sensors. The keys follow Home Assistant's device classes, whose "on" meaning BTHome
/// shares (`door` on = open, `lock` on = unlocked, `battery_low` on = low), with a suffix where a number already
/// uses the name.
extension Quantity {
    public static let genericBinary = binary("generic", "Generic", deviceClass: nil)
    public static let powered = binary("powered", "Powered", deviceClass: "power")
    public static let opening = binary("opening", "Opening", deviceClass: "opening")
    public static let batteryLow = binary("battery_low", "Battery low", deviceClass: "battery")
    public static let batteryCharging = binary("battery_charging", "Battery charging", deviceClass: "battery_charging")
    public static let carbonMonoxide = binary("carbon_monoxide", "Carbon monoxide", deviceClass: "carbon_monoxide")
    public static let cold = binary("cold", "Cold", deviceClass: "cold")
    public static let connectivity = binary("connectivity", "Connectivity", deviceClass: "connectivity")
    public static let door = binary("door", "Door", deviceClass: "door")
    public static let garageDoor = binary("garage_door", "Garage door", deviceClass: "garage_door")
    public static let gasDetected = binary("gas_detected", "Gas", deviceClass: "gas")
    public static let heat = binary("heat", "Heat", deviceClass: "heat")
    public static let lightDetected = binary("light_detected", "Light", deviceClass: "light")
    public static let lock = binary("lock", "Lock", deviceClass: "lock")
    public static let moistureDetected = binary("moisture_detected", "Moisture detected", deviceClass: "moisture")
    public static let motion = binary("motion", "Motion", deviceClass: "motion")
    public static let moving = binary("moving", "Moving", deviceClass: "moving")
    public static let occupancy = binary("occupancy", "Occupancy", deviceClass: "occupancy")
    public static let plug = binary("plug", "Plug", deviceClass: "plug")
    public static let presence = binary("presence", "Presence", deviceClass: "presence")
    public static let problem = binary("problem", "Problem", deviceClass: "problem")
    public static let running = binary("running", "Running", deviceClass: "running")
    public static let safety = binary("safety", "Safety", deviceClass: "safety")
    public static let smoke = binary("smoke", "Smoke", deviceClass: "smoke")
    public static let sound = binary("sound", "Sound", deviceClass: "sound")
    public static let tamper = binary("tamper", "Tamper", deviceClass: "tamper")
    public static let vibration = binary("vibration", "Vibration", deviceClass: "vibration")
    public static let window = binary("window", "Window", deviceClass: "window")
}

extension BTHomeObject {
    /// Every object id of BTHome v2 (bthome.io/format), 0x00–0x64. 0x00, the packet id, is not a measurement.
    static let table: [UInt8: BTHomeObject] = {
        var table: [UInt8: BTHomeObject] = [
            0x00: .init(encoding: .unsigned(1), quantity: .count),
            0x01: .init(encoding: .unsigned(1), quantity: .battery),
            0x02: .init(encoding: .signed(2), quantity: .temperature, divisor: 100),
            0x03: .init(encoding: .unsigned(2), quantity: .humidity, divisor: 100),
            0x04: .init(encoding: .unsigned(3), quantity: .pressure, divisor: 100),
            0x05: .init(encoding: .unsigned(3), quantity: .illuminance, divisor: 100),
            0x06: .init(encoding: .unsigned(2), quantity: .weight, divisor: 100),
            0x07: .init(encoding: .unsigned(2), quantity: .weightPounds, divisor: 100),
            0x08: .init(encoding: .signed(2), quantity: .dewPoint, divisor: 100),
            0x09: .init(encoding: .unsigned(1), quantity: .count),
            0x0A: .init(encoding: .unsigned(3), quantity: .energy, divisor: 1000),
            0x0B: .init(encoding: .unsigned(3), quantity: .power, divisor: 100),
            0x0C: .init(encoding: .unsigned(2), quantity: .voltage, divisor: 1000),
            0x0D: .init(encoding: .unsigned(2), quantity: .pm25),
            0x0E: .init(encoding: .unsigned(2), quantity: .pm10),
            0x12: .init(encoding: .unsigned(2), quantity: .co2),
            0x13: .init(encoding: .unsigned(2), quantity: .voc),
            0x14: .init(encoding: .unsigned(2), quantity: .moisture, divisor: 100),
            0x2E: .init(encoding: .unsigned(1), quantity: .humidity),
            0x2F: .init(encoding: .unsigned(1), quantity: .moisture),
            0x3A: .init(encoding: .button, quantity: .button),
            0x3C: .init(encoding: .dimmer, quantity: .dimmer),
            0x3D: .init(encoding: .unsigned(2), quantity: .count),
            0x3E: .init(encoding: .unsigned(4), quantity: .count),
            0x3F: .init(encoding: .signed(2), quantity: .rotation, divisor: 10),
            0x40: .init(encoding: .unsigned(2), quantity: .distance),
            0x41: .init(encoding: .unsigned(2), quantity: .distanceMeters, divisor: 10),
            0x42: .init(encoding: .unsigned(3), quantity: .duration, divisor: 1000),
            0x43: .init(encoding: .unsigned(2), quantity: .current, divisor: 1000),
            0x44: .init(encoding: .unsigned(2), quantity: .speed, divisor: 100),
            0x45: .init(encoding: .signed(2), quantity: .temperature, divisor: 10),
            0x46: .init(encoding: .unsigned(1), quantity: .uvIndex, divisor: 10),
            0x47: .init(encoding: .unsigned(2), quantity: .volume, divisor: 10),
            0x48: .init(encoding: .unsigned(2), quantity: .volumeMillilitres),
            0x49: .init(encoding: .unsigned(2), quantity: .volumeFlowRate, divisor: 1000),
            0x4A: .init(encoding: .unsigned(2), quantity: .voltage, divisor: 10),
            0x4B: .init(encoding: .unsigned(3), quantity: .gas, divisor: 1000),
            0x4C: .init(encoding: .unsigned(4), quantity: .gas, divisor: 1000),
            0x4D: .init(encoding: .unsigned(4), quantity: .energy, divisor: 1000),
            0x4E: .init(encoding: .unsigned(4), quantity: .volume, divisor: 1000),
            0x4F: .init(encoding: .unsigned(4), quantity: .water, divisor: 1000),
            0x50: .init(encoding: .timestamp, quantity: .timestamp),
            0x51: .init(encoding: .unsigned(2), quantity: .acceleration, divisor: 1000),
            0x52: .init(encoding: .unsigned(2), quantity: .gyroscope, divisor: 1000),
            0x53: .init(encoding: .text, quantity: .text),
            0x54: .init(encoding: .raw, quantity: .raw),
            0x55: .init(encoding: .unsigned(4), quantity: .volumeStorage, divisor: 1000),
            0x56: .init(encoding: .unsigned(2), quantity: .conductivity),
            0x57: .init(encoding: .signed(1), quantity: .temperature),
            0x58: .init(encoding: .signed(1), quantity: .temperature, multiplier: 35, divisor: 100),
            0x59: .init(encoding: .signed(1), quantity: .count),
            0x5A: .init(encoding: .signed(2), quantity: .count),
            0x5B: .init(encoding: .signed(4), quantity: .count),
            0x5C: .init(encoding: .signed(4), quantity: .power, divisor: 100),
            0x5D: .init(encoding: .signed(2), quantity: .current, divisor: 1000),
            0x5E: .init(encoding: .unsigned(2), quantity: .direction, divisor: 100),
            0x5F: .init(encoding: .unsigned(2), quantity: .precipitation, divisor: 10),
            0x60: .init(encoding: .unsigned(1), quantity: .channel),
            0x61: .init(encoding: .unsigned(2), quantity: .rotationalSpeed),
            0x62: .init(encoding: .signed(4), quantity: .speed, divisor: 1_000_000),
            0x63: .init(encoding: .signed(4), quantity: .acceleration, divisor: 1_000_000),
            0x64: .init(encoding: .unsigned(1), quantity: .lightLevel),
        ]
        let binaries: [(UInt8, Quantity)] = [
            (0x0F, .genericBinary), (0x10, .powered), (0x11, .opening), (0x15, .batteryLow), (0x16, .batteryCharging),
            (0x17, .carbonMonoxide), (0x18, .cold), (0x19, .connectivity), (0x1A, .door), (0x1B, .garageDoor),
            (0x1C, .gasDetected), (0x1D, .heat), (0x1E, .lightDetected), (0x1F, .lock), (0x20, .moistureDetected),
            (0x21, .motion), (0x22, .moving), (0x23, .occupancy), (0x24, .plug), (0x25, .presence), (0x26, .problem),
            (0x27, .running), (0x28, .safety), (0x29, .smoke), (0x2A, .sound), (0x2B, .tamper), (0x2C, .vibration),
            (0x2D, .window),
        ]
        for (id, quantity) in binaries { table[id] = .init(encoding: .binary, quantity: quantity) }
        return table
    }()
}
