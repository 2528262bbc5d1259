/// Oral-B toothbrushes: manufacturer data of company `00DC`, 9 or 11 bytes: protocol version, model, a reserved
/// byte, state, pressure flags, brushing time (minutes, seconds), mode, sector, and on newer brushes the
/// sector timer and the number of sectors. No encryption; the battery is only readable over GATT.
public enum OralB {
    /// Procter & Gamble's company id.
    public static let company: UInt16 = 0x00DC

    /// Toothbrush states by code.
    static let states: [UInt8: String] = [
        0: "unknown", 1: "initializing", 2: "idle", 3: "running", 4: "charging", 5: "setup", 6: "flight menu",
        8: "selection menu", 9: "off", 10: "post brushing statistics", 113: "final test", 114: "pcb test",
        115: "sleeping", 116: "transport",
    ]
    /// Brushing modes of the Smart, Pro, Genius and Triumph lines.
    static let smartModes: [UInt8: String] = [
        0: "off", 1: "daily clean", 2: "sensitive", 3: "massage", 4: "whitening", 5: "deep clean",
        6: "tongue cleaning", 7: "turbo", 255: "unknown",
    ]
    /// Brushing modes of the iO series.
    static let ioModes: [UInt8: String] = [
        0: "daily clean", 1: "sensitive", 2: "gum care", 3: "whiten", 4: "intense", 5: "super sensitive",
        6: "tongue cleaning", 8: "settings", 9: "off", 11: "smart adapt",
    ]

    /// The model byte's product line (as oralb-ble lists them); iO brushes use the iO modes.
    static func model(_ id: UInt8) -> (name: String, io: Bool) {
        switch id {
        case 0...2: ("Triumph D36", false)
        case 32...34: ("Genius Series D701", false)
        case 39...41: ("Smart Series D700", false)
        case 48...51, 54: ("IO Series", true)
        case 52: ("IO Series 4", true)
        case 53: ("IO Series 5", true)
        case 64...70: ("Smart Series D21", false)
        case 80...87: ("Pro Series D601", false)
        case 112...114, 117...119: ("Genius X D706", false)
        default: ("Oral-B toothbrush", false)
        }
    }

    /// Decodes one advert: `state`, `pressure` (`normal`, `high`, `button pressed`, `power button pressed`),
    /// `brushing_time` (s), `mode` and `sector` (`sector 1`…; `no sector` unless running).
    public static func decode(_ data: [UInt8]) -> Decoded {
        guard data.count == 9 || data.count == 11 else {
            return .undecodable(data.isEmpty ? .empty : .wrongLength(data.count, expected: [9, 11]))
        }
        let (name, io) = model(data[1])
        let state = states[data[3]] ?? "unknown state \(data[3])"
        let flags = data[4]
        // Button presses take precedence over the pressure flag (bit 7).
        let pressure =
            flags & 0x08 != 0 ? "power button pressed" : flags & 0x04 != 0 ? "button pressed"
            : flags & 0x80 != 0 ? "high" : "normal"
        let seconds = Double(Int(data[5]) * 60 + Int(data[6]))
        let mode = (io ? ioModes : smartModes)[data[7]] ?? "unknown mode \(data[7])"
        let count = data.count == 11 ? data[10] : nil
        var sector = "no sector"
        // Only meaningful while brushing: an idle brush keeps reporting its last sector.
        if data[3] == 3 {
            switch data[8] & 0x07 {
            case 0: break
            case 7: sector = "sector \(count.map { $0 & 0x07 }.flatMap { $0 == 0 ? nil : $0 } ?? 4)"
            case let quadrant: sector = "sector \(quadrant)"
            }
        }
        let values = [
            Measurement(.toothbrushState, .text(state)), Measurement(.brushPressure, .text(pressure)),
            Measurement(.brushingTime, seconds), Measurement(.brushingMode, .text(mode)),
            Measurement(.sector, .text(sector)),
        ]
        return .reading(Reading(values, model: SensorModel(manufacturer: "Oral-B", model: name)))
    }
}
