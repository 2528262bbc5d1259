public import BLEModels

/// SwitchBot sensors: service data `FD3D` (byte 0 & 0x7F names the model, byte 2 carries the battery) and
/// manufacturer data `0969` (the MAC, then the model's fields). BlueZ keeps both once an active scan has seen
/// the scan response, which carries the service data; from manufacturer data alone the model is unknown.
public enum SwitchBot {
    /// The service data UUID, `FD3D`.
    public static let service = BLEUUID(uuid16: 0xFD3D)
    /// The company id of the manufacturer data, `0969` (Woan Technology).
    public static let company: UInt16 = 0x0969

    /// The sensors this decoder reads, by the model byte.
    public enum Model: UInt8, Sendable, CaseIterable {
        case meter = 0x54, meterPlus = 0x69, outdoorMeter = 0x77, meterPro = 0x34, meterProCO2 = 0x35, hub2 = 0x76
        case contact = 0x64, motion = 0x73, leak = 0x26

        /// The name SwitchBot sells it under.
        public var name: String {
            switch self {
            case .meter: "Meter"
            case .meterPlus: "Meter Plus"
            case .outdoorMeter: "Indoor/Outdoor Meter"
            case .meterPro: "Meter Pro"
            case .meterProCO2: "Meter Pro CO2"
            case .hub2: "Hub 2"
            case .contact: "Contact Sensor"
            case .motion: "Motion Sensor"
            case .leak: "Leak Detector"
            }
        }
    }

    /// Decodes a SwitchBot sensor from its service data and, when BlueZ has it, its manufacturer data; nil when
    /// the service data is missing or names a model this decoder does not read (bots, locks, plugs).
    public static func decode(serviceData: [UInt8]?, manufacturerData: [UInt8]?) -> Decoded? {
        guard let service = serviceData, let first = service.first, let model = Model(rawValue: first & 0x7F) else {
            return nil
        }
        let maker = manufacturerData ?? []
        var values: [Measurement] = []
        if service.count >= 3, model != .hub2 { values.append(Measurement(.battery, Double(service[2] & 0x7F))) }
        switch model {
        case .meter, .meterPlus, .outdoorMeter, .meterPro, .meterProCO2:
            // The manufacturer data is newer when both are there (passive scans update only it).
            let block = maker.count >= 11 ? Array(maker[8..<11]) : service.count >= 6 ? Array(service[3..<6]) : nil
            if let block { values += climate(block) }
            if model == .meterProCO2, maker.count >= 15 {
                let co2 = Int(maker[13]) << 8 | Int(maker[14])
                // The sensor's range ends at 9999 ppm; more is a transient reading error.
                if co2 <= 9999 { values.append(Measurement(.co2, Double(co2))) }
            }
        case .hub2:
            guard maker.count >= 16 else { break }
            values += climate(Array(maker[13..<16]))
            values.append(Measurement(.lightLevel, Double(maker[12] & 0x1F)))
        case .contact:
            if maker.count >= 13 {
                let flags = maker[7]
                values += [
                    Measurement(.occupancy, .bool(flags & 0x80 != 0)),
                    Measurement(.contact, .bool(flags & 0x30 == 0)),
                    Measurement(.lightDetected, .bool(flags & 0x40 != 0)),
                ]
            } else if service.count >= 9 {
                values += [
                    Measurement(.occupancy, .bool(service[1] & 0x40 != 0)),
                    Measurement(.contact, .bool(service[3] & 0x06 == 0)),
                    Measurement(.lightDetected, .bool(service[3] & 0x01 != 0)),
                ]
            }
        case .motion:
            if maker.count >= 8 {
                values += [
                    Measurement(.occupancy, .bool(maker[7] & 0x40 != 0)),
                    Measurement(.lightDetected, .bool(maker[7] & 0x20 != 0)),
                ]
            } else if service.count >= 6 {
                values += [
                    Measurement(.occupancy, .bool(service[1] & 0x40 != 0)),
                    Measurement(.lightDetected, .bool(service[5] & 0x02 != 0)),
                ]
            }
        case .leak:
            // The leak detector's flags are in the manufacturer data only, with the battery beside them.
            if maker.count >= 9 {
                values = [
                    Measurement(.waterLeak, .bool(maker[8] & 0x01 != 0)),
                    Measurement(.tamper, .bool(maker[8] & 0x02 != 0)),
                    Measurement(.battery, Double(maker[7] & 0x7F)),
                    Measurement(.batteryLow, .bool(maker[7] & 0x80 != 0)),
                ]
            }
        }
        return .reading(Reading(values, model: SensorModel(manufacturer: "SwitchBot", model: model.name)))
    }

    /// The 3-byte temperature and humidity block: tenths of °C in the low nibble of byte 0, whole °C in bits 0–6
    /// of byte 1 (bit 7 set: above zero), humidity % in bits 0–6 of byte 2 (bit 7: the display shows °F). An
    /// all-zero block is a sensor that has not measured yet.
    static func climate(_ block: [UInt8]) -> [Measurement] {
        let magnitude = Double(block[1] & 0x7F) + Double(block[0] & 0x0F) / 10
        let humidity = Double(block[2] & 0x7F)
        guard magnitude != 0 || humidity != 0 else { return [] }
        let temperature = block[1] & 0x80 != 0 ? magnitude : -magnitude
        return [Measurement(.temperature, (temperature * 10).rounded() / 10), Measurement(.humidity, humidity)]
    }
}
