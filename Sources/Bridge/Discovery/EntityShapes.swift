import BridgeCore

/// The platform-specific part of each entity: which Home Assistant component an expose leaf becomes.
struct EntityShapes {
    let topics: Topics
    let legacy: Bool

    /// The component and its keys for one leaf; nil when the leaf has no entity (a light or scene inside a
    /// composite, a key that cannot stand in a template or topic, or a value that is only set and never in the
    /// state: such a leaf qualifies a command, like a motor move's `time_ms`, and has nothing to show).
    func entity(for leaf: ExposeLeaf, alias: String) -> (String, [String: JSONValue])? {
        let expose = leaf.expose
        guard leaf.path.allSatisfy(StateTemplates.isPlain), StateTemplates.isPlain(leaf.objectID) else { return nil }
        guard expose.access.contains(.state) || [.action, .scene, .light, .event].contains(expose.kind) else { return nil }
        let state = JSONValue.string(topics.state(alias))
        let valueTemplate = JSONValue.string(
            StateTemplates.value(leaf.path, missing: expose.kind == .text && expose.isWritable ? "" : "None"))
        let reading: [String: JSONValue] = ["state_topic": state, "value_template": valueTemplate]
        switch expose.kind {
        case .light:
            guard let features = expose.light, !leaf.isNested else { return nil }
            return ("light", light(features, alias: alias))
        case .binary where expose.isWritable:
            let on = expose.valueOn ?? "ON"
            let off = expose.valueOff ?? "OFF"
            var keys = reading.merging(overlay: ["state_on": .string(on), "state_off": .string(off)])
            if leaf.isNested {
                // Home Assistant sends a switch's payloads as they are, so each is the whole nested object.
                keys["command_topic"] = .string(topics.set(alias))
                keys["payload_on"] = .string(StateTemplates.payload(leaf.path, .string(on)))
                keys["payload_off"] = .string(StateTemplates.payload(leaf.path, .string(off)))
            } else {
                keys["command_topic"] = .string(topics.set(alias, attribute: expose.property))
                keys["payload_on"] = .string(on)
                keys["payload_off"] = .string(off)
            }
            return ("switch", keys.merging(overlay: deviceClass(expose)))
        case .binary:
            let payloads: [String: JSONValue] = [
                "payload_on": .string(expose.valueOn ?? "ON"), "payload_off": .string(expose.valueOff ?? "OFF"),
            ]
            return ("binary_sensor", reading.merging(overlay: payloads).merging(overlay: deviceClass(expose)))
        case .numeric where expose.isWritable:
            var keys = reading.merging(overlay: command(leaf, alias: alias))
            keys["min"] = expose.minimum.map(JSONValue.number)
            keys["max"] = expose.maximum.map(JSONValue.number)
            keys["step"] = expose.step.map(JSONValue.number)
            keys["unit_of_measurement"] = expose.unit.map(JSONValue.string)
            return ("number", keys.merging(overlay: deviceClass(expose)))
        case .numeric:
            var keys = reading
            keys["unit_of_measurement"] = expose.unit.map(JSONValue.string)
            keys["state_class"] = expose.stateClass.map(JSONValue.string)
            return ("sensor", keys.merging(overlay: deviceClass(expose)))
        case .enumeration where expose.isWritable:
            let options: [String: JSONValue] = ["options": .array(expose.values.map(JSONValue.string))]
            return ("select", reading.merging(overlay: command(leaf, alias: alias)).merging(overlay: options))
        case .enumeration:
            let options: [String: JSONValue] = ["device_class": "enum", "options": .array(expose.values.map(JSONValue.string))]
            return ("sensor", reading.merging(overlay: options))
        case .text where expose.isWritable:
            // A text expose's upper bound is its length, as a text entity's `max` is. No `min`: a state without the
            // key reads as an empty text, which Home Assistant refuses to show (and logs) under any `min` above 0;
            // a too short `/set` is still refused by the bridge, with the reason.
            var keys = reading.merging(overlay: command(leaf, alias: alias))
            keys["max"] = expose.maximum.map(JSONValue.number)
            return ("text", keys)
        case .text:
            return ("sensor", reading)
        case .action:
            let payload = StateTemplates.payload(leaf.path, .string(expose.values.first ?? ""))
            return ("button", ["command_topic": .string(topics.set(alias)), "payload_press": .string(payload)])
        case .scene:
            guard !leaf.isNested else { return nil }
            let payload = StateTemplates.payload(leaf.path, .string(expose.values.first ?? ""))
            return ("scene", ["command_topic": .string(topics.set(alias)), "payload_on": .string(payload)])
        case .event:
            // All of a device's occurrences share one topic; each entity's template lets through only its own.
            let keys: [String: JSONValue] = [
                "state_topic": .string(topics.event(alias)),
                "value_template": .string(StateTemplates.event(leaf.dottedPath)),
                "event_types": .array(expose.values.map(JSONValue.string)),
            ]
            return ("event", keys.merging(overlay: deviceClass(expose)))
        case .composite:
            return nil
        }
    }

    /// Where a number, select or text sends its value: `/set/<property>` at the top level; nested, `/set` with a
    /// command template that wraps the value in the leaf's path.
    private func command(_ leaf: ExposeLeaf, alias: String) -> [String: JSONValue] {
        guard leaf.isNested else { return ["command_topic": .string(topics.set(alias, attribute: leaf.expose.property))] }
        return ["command_topic": .string(topics.set(alias)), "command_template": .string(StateTemplates.command(leaf.path))]
    }

    private func deviceClass(_ expose: Expose) -> [String: JSONValue] {
        expose.deviceClass.map { ["device_class": .string($0)] } ?? [:]
    }

    /// A JSON-schema light; kelvin by default, mireds and the pre-2024.4 flags in legacy mode.
    private func light(_ features: LightFeatures, alias: String) -> [String: JSONValue] {
        var keys: [String: JSONValue] = [
            "schema": "json", "state_topic": .string(topics.state(alias)), "command_topic": .string(topics.set(alias)),
            "supported_color_modes": .array(features.supportedColorModes.map { .string($0.rawValue) }),
        ]
        if features.brightness { keys["brightness_scale"] = 255 }
        if let range = features.kelvinRange, features.supportedColorModes.contains(.colorTemp) {
            if legacy {
                // Rounded inwards, so every mired value Home Assistant offers converts back into the range.
                keys["min_mireds"] = .number(Double((1_000_000 + range.upperBound - 1) / range.upperBound))
                keys["max_mireds"] = .number(Double(1_000_000 / range.lowerBound))
            } else {
                keys["color_temp_kelvin"] = true
                keys["min_kelvin"] = .number(Double(range.lowerBound))
                keys["max_kelvin"] = .number(Double(range.upperBound))
            }
        }
        if !features.effects.isEmpty {
            keys["effect"] = true
            keys["effect_list"] = .array(features.effects.map(JSONValue.string))
        }
        if legacy {
            keys["color_mode"] = true
            keys["brightness"] = .bool(features.brightness)
        }
        return keys
    }
}
