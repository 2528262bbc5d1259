import BridgeCore
import Foundation
import TestSupport

/// What each `mosquitto_pub`/`mosquitto_sub` line of the docs must do in the demo, keyed by the command as
/// written (without its comment and `&`). A line that appears in several places does the same everywhere.
enum DocExpectations {
    /// One row of the table.
    typealias Row = (command: String, expectation: Expectation)

    /// Every row; `DocExampleTests` requires each command once and an expectation for each example.
    static var all: [Row] { lifx + bridge + ev3 }

    /// The expectation for a command, if the table has one.
    static func expectation(for command: String) -> Expectation? { all.first { $0.command == command }?.expectation }

    /// LIFX lights, groups and scenes, and the Nova flash.
    static let lifx: [Row] = [
        (
            #"mosquitto_pub -t things2mqtt/living_room/floor_lamp/set -m '{"state":"ON","brightness":200,"color":{"h":120,"s":80}}'"#,
            state("living_room/floor_lamp", "ON at 200, h 120 s 80") {
                $0["state"] == "ON" && $0["brightness"] == 200 && $0["color"]?["h"] == 120 && $0["color"]?["s"] == 80
            }
        ),
        ("mosquitto_pub -t things2mqtt/living_room/set -m OFF", state("living_room", "OFF") { $0["state"] == "OFF" }),
        (
            #"mosquitto_pub -t things2mqtt/bridge/request/lifx/scene -m '{"scene":"Evening"}'"#,
            .effect { run, mark in
                let response = try await run.response("lifx/scene", after: mark)
                guard response["data"]?["scene"] == "Evening" else { throw TestFailure("scene response: \(response.jsonString)") }
                try await run.lifxRequest(after: mark, "activating a scene") { $0.method == "PUT" && $0.path.hasSuffix("/activate") }
            }
        ),
        (
            // The scene before left the lamp on, so the write to the cloud is what shows.
            "mosquitto_pub -t things2mqtt/living_room/floor_lamp/set -m ON",
            .effect { run, mark in
                try await run.state("living_room/floor_lamp", "ON") { $0["state"] == "ON" }
                try await run.lifxRequest(after: mark, "powering the floor lamp on") { request in
                    request.method == "PUT" && (request.path + request.body).contains("d073d5000002") && request.body.contains(#""on""#)
                }
            }
        ),
        (
            #"mosquitto_pub -t things2mqtt/living_room/floor_lamp/set -m '{"state":"ON","brightness":128,"transition":2}'"#,
            state("living_room/floor_lamp", "ON at 128") { $0["state"] == "ON" && $0["brightness"] == 128 }
        ),
        (
            #"mosquitto_pub -t things2mqtt/living_room/floor_lamp/set -m '{"color":{"h":240,"s":100}}'"#,
            state("living_room/floor_lamp", "h 240 s 100") { $0["color"]?["h"] == 240 && $0["color"]?["s"] == 100 }
        ),
        (
            #"mosquitto_pub -t things2mqtt/living_room/floor_lamp/set -m '{"color_temp":2700}'"#,
            state("living_room/floor_lamp", "2700 K") { $0["color_temp"] == 2700 }
        ),
        (
            // 370 mireds are 2702.7 K, not the 2700 K of the line before. The light in the cloud is what is
            // checked: sent right after the line before, the two writes are merged into one.
            #"mosquitto_pub -t things2mqtt/living_room/floor_lamp/set -m '{"color_temp":370}'"#,
            .effect { run, _ in
                try await waitUntil("the floor lamp at about 2703 K in the cloud", timeout: .seconds(15)) {
                    (2701...2705).contains(run.rig.lifx.light(id: "d073d5000002")?.kelvin ?? 0)
                }
            }
        ),
        (
            "mosquitto_pub -t things2mqtt/living_room/floor_lamp/set/brightness -m 64",
            state("living_room/floor_lamp", "brightness 64") { $0["brightness"] == 64 }
        ),
        (
            #"mosquitto_pub -t things2mqtt/living_room/set -m '{"effect":"breathe"}'"#,
            .effect { run, mark in
                try await run.lifxRequest(after: mark, "for the breathe effect") { $0.method == "POST" && $0.path.hasSuffix("/effects/breathe") }
            }
        ),
        (
            #"mosquitto_pub -t things2mqtt/lifx_scenes/set -m '{"scene":"Evening"}'"#,
            .effect { run, mark in
                try await run.lifxRequest(after: mark, "activating a scene") { $0.method == "PUT" && $0.path.hasSuffix("/activate") }
                try await run.state("lifx_scenes", "last scene Evening") { $0["last_scene"] == "Evening" }
            }
        ),
        (
            #"mosquitto_pub -t things2mqtt/ble_aabbccddee01/set -m '{"state":"ON","color_temp":3000}'"#,
            state("ble_aabbccddee01", "ON") { $0["state"] == "ON" }
        ),
    ]

    /// An effect that is a state: the device's state, as last published, comes to satisfy `predicate`.
    static func state(_ alias: String, _ what: String, _ predicate: @escaping @Sendable (JSONValue) -> Bool) -> Expectation {
        .effect { run, _ in try await run.state(alias, what, predicate) }
    }

    /// Whether a `mosquitto_sub -v` payload is a JSON object whose `key` is `value`.
    static func payload(_ text: String, _ key: String, is value: JSONValue) -> Bool {
        JSONValue.parse(Array(text.utf8))?[key] == value
    }
}
