import BLEFormats
import BridgeCore
import TestSupport
import Testing

@Suite("BTHome v2 adverts")
struct BTHomeTests {
    @Test("the reference's worked example: 40 02 C4 09 03 BF 13 is 25.00 °C and 50.55 %")
    func workedExample() throws {
        let reading = try #require(BTHome.decode(hex("40 02 C4 09 03 BF 13")).reading)
        #expect(reading.measurements.map(\.key) == ["temperature", "humidity"])
        #expect(reading.number("temperature") == 25.00)
        #expect(reading.number("humidity") == 50.55)
        #expect(reading.measurements[0].quantity.unit == "°C" && reading.measurements[1].quantity.unit == "%")
        #expect(reading.packetID == nil && reading.stoppedEarly == nil)
        #expect(reading.state == ["temperature": 25, "humidity": 50.55])
    }

    /// One object of every numeric id after a plain info byte: id, bytes, state key, value, unit.
    static let numbers: [(String, String, Double, String?)] = [
        ("01 61", "battery", 97, "%"), ("02 CA 09", "temperature", 25.06, "°C"), ("02 38 F7", "temperature", -22.48, "°C"),
        ("03 BF 13", "humidity", 50.55, "%"), ("04 13 8A 01", "pressure", 1008.83, "hPa"),
        ("05 13 8A 14", "illuminance", 13460.67, "lx"), ("06 5E 1F", "weight", 80.3, "kg"), ("07 3E 1D", "weight_lb", 74.86, "lb"),
        ("08 CA 06", "dew_point", 17.38, "°C"), ("09 60", "count", 96, nil), ("0A 13 8A 14", "energy", 1346.067, "kWh"),
        ("0B 02 1B 00", "power", 69.14, "W"), ("0C 02 0C", "voltage", 3.074, "V"), ("0D 12 0C", "pm25", 3090, "µg/m³"),
        ("0E 02 1C", "pm10", 7170, "µg/m³"), ("12 E2 04", "co2", 1250, "ppm"), ("13 33 01", "voc", 307, "µg/m³"),
        ("14 02 0C", "moisture", 30.74, "%"), ("2E 23", "humidity", 35, "%"), ("2F 23", "moisture", 35, "%"),
        ("3D 09 60", "count", 24585, nil), ("3E 2A 2C 09 00", "count", 601130, nil), ("3F 02 0C", "rotation", 307.4, "°"),
        ("3F FE FF", "rotation", -0.2, "°"), ("40 0C 00", "distance", 12, "mm"), ("41 4E 00", "distance_m", 7.8, "m"),
        ("42 4E 34 00", "duration", 13.39, "s"), ("43 4E 34", "current", 13.39, "A"), ("44 4E 34", "speed", 133.9, "m/s"),
        ("45 11 01", "temperature", 27.3, "°C"), ("45 F5 FF", "temperature", -1.1, "°C"), ("46 32", "uv_index", 5, nil),
        ("47 87 56", "volume", 2215.1, "L"), ("48 DC 87", "volume_ml", 34780, "mL"), ("49 DC 87", "volume_flow_rate", 34.78, "m³/h"),
        ("4A 02 0C", "voltage", 307.4, "V"), ("4B 13 8A 14", "gas", 1346.067, "m³"), ("4C 41 01 8A 01", "gas", 25821.505, "m³"),
        ("4D 12 13 8A 14", "energy", 344593.17, "kWh"), ("4E 87 56 2A 01", "volume", 19551.879, "L"),
        ("4F 87 56 2A 01", "water", 19551.879, "L"), ("51 87 56", "acceleration", 22.151, "m/s²"),
        ("52 87 56", "gyroscope", 22.151, "°/s"), ("55 87 56 2A 01", "volume_storage", 19551.879, "L"),
        ("56 04 13", "conductivity", 4868, "µS/cm"), ("57 EA", "temperature", -22, "°C"), ("58 EA", "temperature", -7.7, "°C"),
        ("59 EA", "count", -22, nil), ("5A EA EA", "count", -5398, nil), ("5B EA EA EA EA", "count", -353_703_190, nil),
        ("5C FE FF FF FF", "power", -0.02, "W"), ("5D 4E FC", "current", -0.946, "A"), ("5E 13 8A", "direction", 353.47, "°"),
        ("5F 8D 01", "precipitation", 39.7, "mm"), ("60 01", "channel", 1, nil), ("61 EA 0C", "rotational_speed", 3306, "rpm"),
        ("62 18 FC FF FF", "speed", -0.001, "m/s"), ("63 40 42 0F 00", "acceleration", 1, "m/s²"), ("64 05", "light_level", 5, nil),
    ]

    @Test("every numeric object id: length, signedness and scale factor", arguments: numbers)
    func numeric(object: String, key: String, value: Double, unit: String?) throws {
        let reading = try #require(BTHome.decode(hex("40 " + object)).reading)
        #expect(reading.measurements.count == 1)
        #expect(reading.measurements.first?.key == key)
        #expect(reading.number(key) == value)
        #expect(reading.measurements.first?.quantity.unit == unit)
        #expect(reading.stoppedEarly == nil)
    }

    static let binaries: [(UInt8, String, String?)] = [
        (0x0F, "generic", nil), (0x10, "powered", "power"), (0x11, "opening", "opening"), (0x15, "battery_low", "battery"),
        (0x16, "battery_charging", "battery_charging"), (0x17, "carbon_monoxide", "carbon_monoxide"), (0x18, "cold", "cold"),
        (0x19, "connectivity", "connectivity"), (0x1A, "door", "door"), (0x1B, "garage_door", "garage_door"),
        (0x1C, "gas_detected", "gas"), (0x1D, "heat", "heat"), (0x1E, "light_detected", "light"), (0x1F, "lock", "lock"),
        (0x20, "moisture_detected", "moisture"), (0x21, "motion", "motion"), (0x22, "moving", "moving"),
        (0x23, "occupancy", "occupancy"), (0x24, "plug", "plug"), (0x25, "presence", "presence"), (0x26, "problem", "problem"),
        (0x27, "running", "running"), (0x28, "safety", "safety"), (0x29, "smoke", "smoke"), (0x2A, "sound", "sound"),
        (0x2B, "tamper", "tamper"), (0x2C, "vibration", "vibration"), (0x2D, "window", "window"),
    ]

    @Test("every binary object id: 0 is off, 1 is on, anything else is dropped and parsing goes on", arguments: binaries)
    func binary(id: UInt8, key: String, deviceClass: String?) throws {
        for (raw, expected) in [(UInt8(0), MeasuredValue?.some(.bool(false))), (1, .bool(true)), (2, nil), (0xFF, nil)] {
            let reading = try #require(BTHome.decode([0x40, id, raw, 0x45, 0x11, 0x01]).reading)
            #expect(reading[key] == expected, "0x\(String(id, radix: 16)) \(raw)")
            #expect(reading.number("temperature") == 27.3)
        }
        let measurement = try #require(BTHome.decode([0x40, id, 1]).reading?.measurements.first)
        #expect(measurement.quantity.kind == .binary && measurement.quantity.deviceClass == deviceClass)
        #expect(measurement.value.json == "ON")
    }

    @Test(
        "button events by code; 0x00 and unknown codes carry no event",
        arguments: [
            (0x01, "press"), (0x02, "double_press"), (0x03, "triple_press"), (0x04, "long_press"), (0x05, "long_double_press"),
            (0x06, "long_triple_press"), (0x80, "hold_press"), (0x00, nil), (0x07, nil), (0x7F, nil), (0xFF, nil),
        ] as [(UInt8, String?)])
    func button(code: UInt8, event: String?) throws {
        let reading = try #require(BTHome.decode([0x44, 0x00, 0x2A, 0x01, 0x64, 0x3A, code]).reading)
        #expect(reading.packetID == 0x2A)
        #expect(reading.number("battery") == 100)
        #expect(reading["button"] == event.map(MeasuredValue.event))
        #expect(Quantity.button.kind == .event(types: BTHomeEvents.button.map(\.name)))
    }

    @Test("a four-button remote: buttons numbered by position, quiet buttons leave their number unused")
    func multipleButtons() throws {
        let reading = try #require(BTHome.decode(hex("44 00 07 01 50 3A 00 3A 00 3A 02 3A 00")).reading)
        #expect(reading.measurements.map(\.key) == ["battery", "button_3"])
        #expect(reading["button_3"] == .event("double_press"))
        #expect(reading.measurements.last?.quantity.name == "Button 3")
        // The buttons without an event are there all the same: quiet, so their entities exist before a press.
        #expect(reading.quiet.map(\.key) == ["button_1", "button_2", "button_4"])
        #expect(reading.quiet.map(\.name) == ["Button 1", "Button 2", "Button 4"])
    }

    @Test("dimmer events carry their steps; two temperatures of different ids are numbered")
    func dimmerAndDuplicates() throws {
        let reading = try #require(BTHome.decode(hex("40 02 C4 09 3C 01 03 45 11 01")).reading)
        #expect(reading["dimmer"] == .event("rotate_left"))
        #expect(reading.number("dimmer_steps") == 3)
        #expect(reading.number("temperature_1") == 25 && reading.number("temperature_2") == 27.3)
        let still = try #require(BTHome.decode(hex("40 3C 00 05")).reading)
        #expect(still.measurements.isEmpty && still.quiet.map(\.key) == ["dimmer"])
        #expect(BTHome.decode(hex("40 3C 02 FF")).reading?["dimmer"] == .event("rotate_right"))
    }

    @Test("text, raw and timestamp objects")
    func variableObjects() throws {
        let text = try #require(BTHome.decode(hex("40 53 0C 48 65 6C 6C 6F 20 57 6F 72 6C 64 21")).reading)
        #expect(text["text"] == .text("Hello World!"))
        let raw = try #require(BTHome.decode(hex("40 54 0C 48 65 6C 6C 6F 20 57 6F 72 6C 64 21 01 10")).reading)
        #expect(raw["raw"] == .text("48656c6c6f20576f726c6421") && raw.number("battery") == 16)
        #expect(BTHome.decode(hex("40 53 00")).reading?["text"] == .text(""))
        #expect(BTHome.decode(hex("40 53 02 C3 28 01 10")).reading?.measurements.map(\.key) == ["battery"])
        let time = try #require(BTHome.decode(hex("40 50 5D 39 61 64")).reading)
        #expect(time["timestamp"] == .text("2023-05-14T19:41:17Z"))
        #expect(time.measurements.first?.quantity.deviceClass == "timestamp")
    }

    @Test("the info byte: trigger based, MAC included, encrypted, version")
    func infoByte() throws {
        #expect(BTHome.decode(hex("44 02 C4 09")).reading?.number("temperature") == 25)
        #expect(BTHome.decode(hex("42 FF EE DD CC BB AA 02 C4 09")).reading?.number("temperature") == 25)
        #expect(BTHome.decode(hex("42 FF EE DD CC")).failure == .truncated(at: 1))
        #expect(BTHome.decode(hex("41 A4 72 66 C2 88 A1 EC 1D 02 B2 03 00 4D 4C 59 6E")) == .encrypted)
        #expect(BTHome.decode(hex("43 A4 72 66 C2 88 A1 EC 1D")) == .encrypted)
        #expect(BTHome.decode(hex("45")) == .encrypted)
        #expect(BTHome.decode(hex("20 02 C4 09")).failure == .unsupportedVersion(1))
        #expect(BTHome.decode(hex("02 C4 09")).failure == .unsupportedVersion(0))
        #expect(BTHome.decode(hex("61 02 C4 09")).failure == .unsupportedVersion(3))
        #expect(BTHome.decode([]).failure == .empty)
        #expect(BTHome.decode(hex("40")).reading == Reading([]))
    }

    @Test("an unknown id stops decoding and keeps what came before; a cut object spoils the advert")
    func stopping() throws {
        let partial = try #require(BTHome.decode(hex("40 00 09 02 C4 09 F0 01 00 03 BF 13")).reading)
        #expect(partial.measurements.map(\.key) == ["temperature"] && partial.packetID == 9)
        #expect(partial.stoppedEarly == .unknownObject(id: 0xF0, at: 6))
        #expect(BTHome.decode(hex("40 02 C4 09 03 BF")).failure == .truncated(at: 4))
        #expect(BTHome.decode(hex("40 53 05 41 42")).failure == .truncated(at: 1))
        #expect(BTHome.decode(hex("40 00")).failure == .truncated(at: 1))
        #expect(BTHome.decode([0x40] + Array(repeating: 0x01, count: 256)).failure == .tooLong(257))
    }
}

@Suite("BTHome packet ids and timestamps")
struct BTHomePacketTests {
    @Test("repeats and older packets are dropped; a silent sender resynchronises after 4 s")
    func packetFilter() {
        let steps: [(UInt8, Double, Bool)] = [
            (10, 0, true), (10, 0.1, false), (9, 0.2, false), (11, 0.3, true), (74, 0.4, true), (74 &+ 64, 0.5, false),
            (74, 4.3, false), (74, 4.5, true), (250, 5, false), (3, 10, true), (250, 10.1, false), (4, 10.2, true),
            (250, 20, true), (3, 20.1, true), (250, 20.2, false),
        ]
        var filter = PacketFilter()
        for (id, now, expected) in steps {
            let accepted = filter.accept(id, now: now)
            #expect(accepted == expected, "id \(id) at \(now) s")
        }
    }

    @Test(
        "timestamps are ISO 8601 in UTC, across leap days and to the end of the 32-bit range",
        arguments: [
            (UInt32(0), "1970-01-01T00:00:00Z"), (68_256_000, "1972-03-01T00:00:00Z"), (951_782_400, "2000-02-29T00:00:00Z"),
            (1_700_000_000, "2023-11-14T22:13:20Z"), (0xFFFF_FFFF, "2106-02-07T06:28:15Z"),
        ])
    func timestamps(seconds: UInt32, text: String) {
        let bytes = [0x40, 0x50] + (0..<4).map { UInt8(truncatingIfNeeded: seconds >> (8 * $0)) }
        #expect(BTHome.decode(bytes).reading?["timestamp"] == .text(text))
    }
}
