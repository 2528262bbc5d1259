import BridgeCore
import Testing

/// One expose and the `bridge/devices` entry zigbee2mqtt's frontend expects for it.
struct ExposeJSONCase: Sendable, CustomTestStringConvertible {
    var label: String
    var expose: Expose
    var json: JSONValue
    var testDescription: String { label }
}

/// An expose with changes the factories do not offer.
private func changed(_ expose: Expose, _ change: (inout Expose) -> Void) -> Expose {
    var expose = expose
    change(&expose)
    return expose
}

@Suite("An expose as bridge/devices lists it")
struct ExposeJSONTests {
    static let cases: [ExposeJSONCase] = [
        ExposeJSONCase(
            label: "every field set: each under its snake_case key",
            expose: changed(
                .numeric(
                    "temperature", name: "Temperature", access: [.state, .get], unit: "°C", range: -40...85.5, step: 0.1,
                    deviceClass: "temperature", stateClass: "measurement", category: .diagnostic)
            ) {
                $0.objectID = "temp"
                $0.values = ["a"]
                ($0.valueOn, $0.valueOff) = ("ON", "OFF")
                $0.icon = "mdi:thermometer"
                $0.enabledByDefault = false
            },
            json: [
                "type": "numeric", "name": "Temperature", "property": "temperature", "access": 5, "object_id": "temp",
                "unit": "°C", "minimum": -40, "maximum": 85.5, "step": 0.1, "values": ["a"], "value_on": "ON",
                "value_off": "OFF", "device_class": "temperature", "state_class": "measurement", "category": "diagnostic",
                "icon": "mdi:thermometer", "enabled_by_default": false,
            ]),
        ExposeJSONCase(
            label: "nothing optional: four keys, no nulls",
            expose: changed(.text("note", name: "")) {
                $0.name = nil
                $0.access = []
            },
            json: ["type": "text", "property": "note", "access": 0, "enabled_by_default": true]),
        ExposeJSONCase(
            label: "the enum kind under its zigbee2mqtt name",
            expose: .enumeration("mode", name: "Mode", values: ["eco", "boost"], access: [.state, .set], category: .config),
            json: [
                "type": "enum", "name": "Mode", "property": "mode", "access": 3, "values": ["eco", "boost"],
                "category": "config", "enabled_by_default": true,
            ]),
        ExposeJSONCase(
            label: "a light with a kelvin range: flat bounds, only the modes Home Assistant takes",
            expose: .light(
                LightFeatures(
                    colorModes: [.onoff, .hs, .colorTemp], kelvinRange: 1500...9000, effects: ["pulse"], transition: false)),
            json: [
                "type": "light", "property": "light", "access": 7, "enabled_by_default": true,
                "light": [
                    "color_modes": ["hs", "color_temp"], "brightness": true, "min_kelvin": 1500, "max_kelvin": 9000,
                    "effects": ["pulse"], "transition": false,
                ],
            ]),
        ExposeJSONCase(
            label: "an on/off light: no kelvin keys",
            expose: .light(LightFeatures(colorModes: [], brightness: false)),
            json: [
                "type": "light", "property": "light", "access": 7, "enabled_by_default": true,
                "light": ["color_modes": ["onoff"], "brightness": false, "effects": [], "transition": true],
            ]),
        ExposeJSONCase(
            label: "a composite lists its features; its access is theirs together",
            expose: .composite(
                "motor", name: "Motor",
                features: [
                    .numeric("speed", name: "Speed", access: [.state, .set], unit: "%"),
                    .binary("stalled", name: "Stalled", deviceClass: "problem"),
                ]),
            json: [
                "type": "composite", "name": "Motor", "property": "motor", "access": 3, "enabled_by_default": true,
                "features": [
                    [
                        "type": "numeric", "name": "Speed", "property": "speed", "access": 3, "unit": "%",
                        "enabled_by_default": true,
                    ],
                    [
                        "type": "binary", "name": "Stalled", "property": "stalled", "access": 1, "value_on": "ON",
                        "value_off": "OFF", "device_class": "problem", "enabled_by_default": true,
                    ],
                ],
            ]),
        ExposeJSONCase(
            label: "features on anything but a composite are left out",
            expose: changed(.numeric("level", name: "Level")) { $0.features = [.binary("x", name: "X")] },
            json: ["type": "numeric", "name": "Level", "property": "level", "access": 1, "enabled_by_default": true]),
    ]

    @Test("each field under its key, absent ones left out", arguments: cases)
    func entry(_ testCase: ExposeJSONCase) {
        #expect(testCase.expose.json == testCase.json)
    }
}
