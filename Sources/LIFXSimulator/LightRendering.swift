import Foundation

/// Builds the documented "Bulb Response" and scene JSON (lifx.md §2 and §7).
enum LightRendering {
    /// Serialises a light list, streaming into one buffer since accounts may hold thousands.
    static func render(_ lights: [SimulatedLight], now: Date) -> String {
        var out = ""
        out.reserveCapacity(lights.count * 760 + 2)
        out += "["
        for (index, light) in lights.enumerated() {
            if index > 0 { out += "," }
            json(for: light, now: now).write(to: &out)
        }
        out += "]"
        return out
    }

    /// One light in the documented field order.
    static func json(for light: SimulatedLight, now: Date) -> JSON {
        // A connected bulb checks in continuously, so it was seen "now".
        let seen = light.connected ? now : light.lastSeen
        let age = max(0, Int(now.timeIntervalSince(seen)))
        return .object([
            ("id", .string(light.id)),
            ("uuid", .string(light.uuid)),
            ("label", .string(light.label)),
            ("connected", .bool(light.connected)),
            ("power", .string(light.power ? "on" : "off")),
            ("color", .object([
                ("hue", .double(light.hue)),
                ("saturation", .double(light.saturation)),
                ("kelvin", .int(light.kelvin)),
            ])),
            ("brightness", .double(light.brightness)),
            ("effect", .string(light.effect)),
            ("group", .object([("id", .string(light.groupID)), ("name", .string(light.groupName))])),
            ("location", .object([
                ("id", .string(light.locationID)), ("name", .string(light.locationName)),
            ])),
            ("product", product(light)),
            ("last_seen", .string(iso8601(seen))),
            ("seconds_since_seen", .int(age)),
        ])
    }

    private static func product(_ light: SimulatedLight) -> JSON {
        .object([
            ("name", .string(light.productName)),
            ("identifier", .string(light.productIdentifier)),
            ("company", .string("LIFX")),
            ("capabilities", .object([
                ("has_color", .bool(light.hasColor)),
                ("has_variable_color_temp", .bool(light.hasVariableColorTemp)),
                ("has_ir", .bool(false)),
                ("has_chain", .bool(false)),
                ("has_multizone", .bool(false)),
                ("min_kelvin", .int(light.minKelvin)),
                ("max_kelvin", .int(light.maxKelvin)),
            ])),
            ("product_id", .int(light.productID)),
            ("vendor_id", .int(1)),
        ])
    }

    /// Serialises the scene list.
    static func render(_ scenes: [SimulatedScene], accountUUID: String) -> String {
        JSON.array(scenes.map { json(for: $0, accountUUID: accountUUID) }).rendered()
    }

    /// One scene; optional state fields are omitted rather than null, as in the fixtures.
    static func json(for scene: SimulatedScene, accountUUID: String) -> JSON {
        let states: [JSON] = scene.states.map { state in
            var pairs: [(String, JSON)] = [("selector", .string(state.selector))]
            if let power = state.power { pairs.append(("power", .string(power ? "on" : "off"))) }
            if let brightness = state.brightness { pairs.append(("brightness", .double(brightness))) }
            if state.hue != nil || state.saturation != nil || state.kelvin != nil {
                pairs.append(("color", .object([
                    ("hue", .double(state.hue ?? 0)),
                    ("saturation", .double(state.saturation ?? 0)),
                    ("kelvin", .int(state.kelvin ?? 3500)),
                ])))
            }
            return .object(pairs)
        }
        return .object([
            ("uuid", .string(scene.uuid)),
            ("name", .string(scene.name)),
            ("account", .object([("uuid", .string(accountUUID))])),
            ("states", .array(states)),
            ("created_at", .int(Int(scene.createdAt.timeIntervalSince1970))),
            ("updated_at", .int(Int(scene.updatedAt.timeIntervalSince1970))),
        ])
    }

    /// Formats like "2019-02-25T23:40:40Z"; done by hand because it runs once per light per poll.
    static func iso8601(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Civil-from-days conversion (Howard Hinnant's algorithm) in the proleptic Gregorian calendar.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):"
            + "\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60))Z"
    }
}
