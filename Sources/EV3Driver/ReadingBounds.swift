import EV3Protocol

/// What a brick on LEGO's firmware can report, so that a reply damaged on its way (a Bluetooth link with noise,
/// a USB report cut short) is dropped instead of published: EV3 replies carry no checksum, and a battery current of
/// 10^38 A or every button pressed at once would otherwise reach Home Assistant. The ranges are the firmware's own
/// (`typedata.rcf`'s SI minimum and maximum per mode, the battery's), with room for rounding.
enum ReadingBounds {
    /// Why `result` cannot be what the brick measured, or nil if it can.
    static func problem(_ result: PollResult) -> String? {
        switch result {
        case .brick(let reading): problem(reading)
        case .port(let reading): problem(reading)
        }
    }

    static func problem(_ reading: BrickReading) -> String? {
        if !(0...100).contains(reading.battery) { return "battery \(reading.battery) %" }
        if let voltage = reading.voltage, !(0...12).contains(voltage) { return "battery voltage \(voltage) V" }
        if let current = reading.current, !(0...10).contains(current) { return "battery current \(current) A" }
        if reading.pressed.values.contains(where: { $0 == nil }) { return "a button answer other than 0 or 1" }
        if reading.name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) { return "control characters in the name" }
        return nil
    }

    static func problem(_ reading: PortReading) -> String? {
        if let speed = reading.motor?.speed, !(-100...100).contains(speed) { return "\(reading.port.key) speed \(speed)" }
        // Values read in a mode the sensor has just left are not taken anyway (`BrickModel`); the type and mode that
        // tell the driver so must not be dropped with them.
        guard let values = reading.values, let assumed = reading.assumed, assumed.type == reading.typeMode.type,
            assumed.mode == reading.typeMode.mode, let mode = assumed.namedMode
        else { return nil }
        let range = Self.range(mode)
        for case let value? in values where !range.contains(value) {
            return "\(reading.port.key) \(mode.rawValue) value \(value)"
        }
        return nil
    }

    /// The SI values a mode reports (NaN, read as nil, is the firmware's "no value" and always allowed).
    static func range(_ mode: EV3SensorMode) -> ClosedRange<Float> {
        switch mode {
        case .touch, .listen: 0...1
        case .bumps: 0...Float(Int32.max)
        case .reflected, .ambient, .proximity: 0...100
        case .color: 0...7
        case .rgb: 0...1023
        case .distance: 0...255
        case .distanceInches: 0...101
        case .angle: -32768...32767
        case .rate: -440...440
        case .angleAndRate: -32768...32767
        case .seek: -128...128
        case .remote: 0...11
        }
    }
}
