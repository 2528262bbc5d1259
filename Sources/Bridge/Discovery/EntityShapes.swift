import BridgeCore

/// The platform-specific part of each entity: which Home Assistant component an expose becomes.
struct EntityShapes {
    let topics: Topics
    let legacy: Bool

    /// The component and its keys for one expose; nil when the expose has no entity.
    func entity(for expose: Expose, alias: String) -> (String, [String: JSONValue])? {
        let state = JSONValue.string(topics.state(alias))
        let valueTemplate = JSONValue.string(
            StateTemplates.value([expose.property], missing: expose.kind == .text && expose.isWritable ? "" : "None"))
        let setAttribute = JSONValue.string(topics.set(alias, attribute: expose.property))
        switch expose.kind {
        case .light:
            guard let features = expose.light else { return nil }
            return ("light", light(features, alias: alias))
        case .binary where expose.isWritable:
            return (
                "switch",
                [
                    "state_topic": state, "value_template": valueTemplate, "command_topic": setAttribute,
                    "payload_on": .string(expose.valueOn ?? "ON"), "payload_off": .string(expose.valueOff ?? "OFF"),
                    "state_on": .string(expose.valueOn ?? "ON"), "state_off": .string(expose.valueOff ?? "OFF"),
                ].merging(overlay: deviceClass(expose))
            )
        case .binary:
            return (
                "binary_sensor",
                [
                    "state_topic": state, "value_template": valueTemplate,
                    "payload_on": .string(expose.valueOn ?? "ON"), "payload_off": .string(expose.valueOff ?? "OFF"),
                ].merging(overlay: deviceClass(expose))
            )
        case .numeric where expose.isWritable:
            var keys: [String: JSONValue] = [
                "state_topic": state, "value_template": valueTemplate, "command_topic": setAttribute,
            ]
            keys["min"] = expose.minimum.map(JSONValue.number)
            keys["max"] = expose.maximum.map(JSONValue.number)
            keys["step"] = expose.step.map(JSONValue.number)
            keys["unit_of_measurement"] = expose.unit.map(JSONValue.string)
            return ("number", keys.merging(overlay: deviceClass(expose)))
        case .numeric:
            var keys: [String: JSONValue] = ["state_topic": state, "value_template": valueTemplate]
            keys["unit_of_measurement"] = expose.unit.map(JSONValue.string)
            keys["state_class"] = expose.stateClass.map(JSONValue.string)
            return ("sensor", keys.merging(overlay: deviceClass(expose)))
        case .enumeration where expose.isWritable:
            return (
                "select",
                [
                    "state_topic": state, "value_template": valueTemplate, "command_topic": setAttribute,
                    "options": .array(expose.values.map(JSONValue.string)),
                ]
            )
        case .enumeration:
            return (
                "sensor",
                [
                    "state_topic": state, "value_template": valueTemplate, "device_class": "enum",
                    "options": .array(expose.values.map(JSONValue.string)),
                ]
            )
        case .text where expose.isWritable:
            return ("text", ["state_topic": state, "value_template": valueTemplate, "command_topic": setAttribute])
        case .text:
            return ("sensor", ["state_topic": state, "value_template": valueTemplate])
        case .action:
            let payload = JSONValue.object([expose.property: .string(expose.values.first ?? "")]).jsonString
            return ("button", ["command_topic": .string(topics.set(alias)), "payload_press": .string(payload)])
        case .scene:
            let payload = JSONValue.object([expose.property: .string(expose.values.first ?? "")]).jsonString
            return ("scene", ["command_topic": .string(topics.set(alias)), "payload_on": .string(payload)])
        }
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
