/// The quantities the decoders produce. Units and device classes are those Home Assistant 2024.1 accepts
/// together; where it has no device class for a unit (kJ, rpm, m/s², µS/cm), there is none.
extension Quantity {
    public static let temperature = measurement(
        "temperature", "Temperature", unit: "°C", deviceClass: "temperature", change: .threshold(0.1))
    public static let dewPoint = measurement(
        "dew_point", "Dew point", unit: "°C", deviceClass: "temperature", change: .threshold(0.1))
    public static let humidity = measurement(
        "humidity", "Humidity", unit: "%", deviceClass: "humidity", change: .threshold(0.5))
    public static let moisture = measurement(
        "moisture", "Moisture", unit: "%", deviceClass: "moisture", change: .threshold(0.5))
    public static let pressure = measurement(
        "pressure", "Pressure", unit: "hPa", deviceClass: "pressure", change: .threshold(0.1))
    public static let illuminance = measurement(
        "illuminance", "Illuminance", unit: "lx", deviceClass: "illuminance", change: .threshold(1, relative: 0.05))
    public static let battery = measurement(
        "battery", "Battery", unit: "%", deviceClass: "battery", change: .threshold(1), diagnostic: true)
    public static let voltage = measurement(
        "voltage", "Voltage", unit: "V", deviceClass: "voltage", change: .threshold(0.05), diagnostic: true)
    public static let weight = measurement("weight", "Weight", unit: "kg", deviceClass: "weight", change: .any)
    public static let weightPounds = measurement("weight_lb", "Weight", unit: "lb", deviceClass: "weight", change: .any)
    public static let count = measurement("count", "Count", unit: nil, change: .any)
    public static let energy = meter("energy", "Energy", unit: "kWh", deviceClass: "energy")
    public static let power = measurement(
        "power", "Power", unit: "W", deviceClass: "power", change: .threshold(0.5, relative: 0.05))
    public static let current = measurement(
        "current", "Current", unit: "A", deviceClass: "current", change: .threshold(0.01, relative: 0.05))
    public static let pm25 = measurement("pm25", "PM2.5", unit: "µg/m³", deviceClass: "pm25", change: .threshold(1))
    public static let pm10 = measurement("pm10", "PM10", unit: "µg/m³", deviceClass: "pm10", change: .threshold(1))
    public static let co2 = measurement(
        "co2", "CO2", unit: "ppm", deviceClass: "carbon_dioxide", change: .threshold(5, relative: 0.02))
    public static let voc = measurement(
        "voc", "VOC", unit: "µg/m³", deviceClass: "volatile_organic_compounds", change: .threshold(5, relative: 0.02))
    public static let distance = measurement(
        "distance", "Distance", unit: "mm", deviceClass: "distance", change: .threshold(1, relative: 0.02))
    public static let distanceMeters = measurement(
        "distance_m", "Distance", unit: "m", deviceClass: "distance", change: .threshold(0.1, relative: 0.02))
    public static let duration = measurement("duration", "Duration", unit: "s", deviceClass: "duration", change: .any)
    public static let speed = measurement(
        "speed", "Speed", unit: "m/s", deviceClass: "speed", change: .threshold(0.1, relative: 0.05))
    public static let rotation = measurement("rotation", "Rotation", unit: "°", change: .threshold(0.5))
    public static let uvIndex = measurement("uv_index", "UV index", unit: nil, change: .any)
    public static let volume = meter("volume", "Volume", unit: "L", deviceClass: "volume", stateClass: "total")
    public static let volumeMillilitres = meter(
        "volume_ml", "Volume", unit: "mL", deviceClass: "volume", stateClass: "total")
    public static let volumeFlowRate = measurement("volume_flow_rate", "Volume flow rate", unit: "m³/h", change: .any)
    public static let gas = meter("gas", "Gas", unit: "m³", deviceClass: "gas")
    public static let water = meter("water", "Water", unit: "L", deviceClass: "water")
    public static let volumeStorage = measurement(
        "volume_storage", "Stored volume", unit: "L", deviceClass: "volume_storage", change: .any)
    public static let acceleration = measurement(
        "acceleration", "Acceleration", unit: "m/s²", change: .threshold(0.05, relative: 0.05))
    public static let gyroscope = measurement(
        "gyroscope", "Gyroscope", unit: "°/s", change: .threshold(0.5, relative: 0.05))
    public static let conductivity = measurement(
        "conductivity", "Conductivity", unit: "µS/cm", change: .threshold(1, relative: 0.02))
    public static let direction = measurement("direction", "Direction", unit: "°", change: .threshold(1))
    public static let precipitation = measurement(
        "precipitation", "Precipitation", unit: "mm", deviceClass: "precipitation", change: .any)
    public static let rotationalSpeed = measurement(
        "rotational_speed", "Rotational speed", unit: "rpm", change: .threshold(1, relative: 0.02))
    public static let lightLevel = measurement("light_level", "Light level", unit: nil, change: .any)
    public static let channel = Quantity("channel", name: "Channel")
    /// A date and time the device reports, ISO 8601 in UTC; its clock ticking is no reason to publish.
    public static let timestamp = Quantity("timestamp", name: "Timestamp", kind: .text, deviceClass: "timestamp", change: .quiet)
    public static let text = Quantity.text("text", "Text")
    /// Bytes the device sends as they are, in lowercase hex.
    public static let raw = Quantity.text("raw", "Raw data")
    /// BTHome button events.
    public static let button = Quantity(
        "button", name: "Button", kind: .event(types: BTHomeEvents.button.map(\.name)), deviceClass: "button",
        change: .always)
    /// BTHome dimmer events; their steps are `dimmer_steps`.
    public static let dimmer = Quantity(
        "dimmer", name: "Dimmer", kind: .event(types: BTHomeEvents.dimmer.map(\.name)), change: .always)
    /// How many steps a dimmer turned with its event.
    public static let dimmerSteps = Quantity("dimmer_steps", name: "Dimmer steps")
}

/// The quantities of connected devices' standard characteristics.
extension Quantity {
    public static let heartRate = measurement("heart_rate", "Heart rate", unit: "bpm", change: .any)
    /// Whether the strap has skin contact; only when the sensor reports it.
    public static let sensorContact = Quantity("sensor_contact", name: "Sensor contact", kind: .binary, diagnostic: true)
    /// Energy expended since the sensor's last reset.
    public static let energyExpended = meter("energy_expended", "Energy expended", unit: "kJ", deviceClass: nil)
    /// The beat-to-beat intervals of one measurement, in seconds, oldest first.
    public static let rrIntervals = Quantity("rr_intervals", name: "RR intervals", kind: .list, unit: "s")
    public static let manufacturer = text("manufacturer", "Manufacturer", diagnostic: true)
    public static let model = text("model", "Model", diagnostic: true)
    public static let firmware = text("firmware", "Firmware", diagnostic: true)
    public static let hardware = text("hardware", "Hardware", diagnostic: true)
    public static let software = text("software", "Software", diagnostic: true)
    public static let serial = text("serial", "Serial number", diagnostic: true)
}

/// The quantities of beacons.
extension Quantity {
    public static let beaconUUID = text("uuid", "Beacon UUID", diagnostic: true)
    public static let major = Quantity("major", name: "Major", diagnostic: true)
    public static let minor = Quantity("minor", name: "Minor", diagnostic: true)
    /// The calibrated transmit power (iBeacon: at 1 m; Eddystone: at 0 m).
    public static let txPower = measurement(
        "tx_power", "Transmit power", unit: "dBm", deviceClass: "signal_strength", change: .any, diagnostic: true)
    /// Distance estimated from RSSI; it moves with the signal, so it is throttled like RSSI.
    public static let estimatedDistance = measurement(
        "estimated_distance", "Estimated distance", unit: "m", deviceClass: "distance", change: .signal)
    public static let namespace = text("namespace", "Eddystone namespace", diagnostic: true)
    public static let instance = text("instance", "Eddystone instance", diagnostic: true)
    public static let url = text("url", "URL")
    public static let ephemeralID = text("ephemeral_id", "Ephemeral id", diagnostic: true)
    /// Advertisements sent since power-up; it grows with every one, so it never publishes alone.
    public static let advertisementCount = Quantity(
        "advertisement_count", name: "Advertisements sent", stateClass: "total_increasing", diagnostic: true, change: .quiet)
    /// Time since power-up.
    public static let uptime = Quantity(
        "uptime", name: "Uptime", unit: "s", deviceClass: "duration", stateClass: "total_increasing", diagnostic: true,
        change: .quiet)
}

/// The quantities of the vendor formats (MiBeacon, SwitchBot, Govee, Oral-B, RuuviTag), with zigbee2mqtt's keys.
extension Quantity {
    /// A door or window contact, `ON` when closed (zigbee2mqtt's meaning); Home Assistant shows it as a door.
    public static let contact = Quantity("contact", name: "Contact", kind: .binary, deviceClass: "door", inverted: true)
    /// Water under a leak sensor.
    public static let waterLeak = binary("water_leak", "Water leak", deviceClass: "moisture")
    /// What a toothbrush is doing: `running`, `idle`, `charging`, …
    public static let toothbrushState = text("state", "State")
    /// A toothbrush's pressure: `normal`, `high`, or a button press.
    public static let brushPressure = text("pressure", "Pressure")
    /// How long the current or last brushing has run.
    public static let brushingTime = measurement(
        "brushing_time", "Brushing time", unit: "s", deviceClass: "duration", change: .any)
    /// The toothbrush's mode (`daily clean`, `sensitive`, …).
    public static let brushingMode = text("mode", "Mode")
    /// The mouth sector being brushed (`sector 1`…, `no sector`).
    public static let sector = text("sector", "Sector")
    /// A RuuviTag's count of movements; it wraps at 255.
    public static let movementCounter = Quantity("movement_counter", name: "Movement counter", stateClass: "measurement")
    /// A RuuviTag's measurement sequence number; it grows with every advert, so it never publishes alone.
    public static let sequence = Quantity(
        "sequence", name: "Measurement sequence", stateClass: "measurement", diagnostic: true, change: .quiet)
}
