import BridgeCore
import Foundation
import TestSupport

extension DocExpectations {
    /// The bridge API: watching, events, requests and their responses.
    static let bridge: [Row] = [
        (
            #"mosquitto_sub -v -t 'things2mqtt/#'"#,
            .receives(count: 5, seconds: 10, matching: { topic, _ in topic.hasPrefix("things2mqtt/") })
        ),
        (
            // README.md: in the background while the next line lets the phone in.
            "mosquitto_sub -v -t things2mqtt/bridge/event",
            .receives(count: 1, seconds: 20, matching: { _, text in isEvent(text, "device_added", id: phone) })
        ),
        (
            #"mosquitto_pub -t things2mqtt/bridge/request/ble/permit -m '{"time":60}'"#,
            .effect { run, mark in
                let response = try await run.response("ble/permit", after: mark)
                guard response["data"]?["time"] == 60 else { throw TestFailure("permit response: \(response.jsonString)") }
                try await run.state(phone, "the phone, let in") { _ in true }
            }
        ),
        (
            // docs/topics.md: a /set for a device that does not exist is refused, which is an event.
            "mosquitto_sub -v -t 'things2mqtt/bridge/event'",
            .receives(
                count: 1, seconds: 15, matching: { _, text in isEvent(text, "command_failed", alias: "nobody") },
                trigger: { run in
                    let mark = run.client.mark
                    run.client.publish("things2mqtt/nobody/set", "ON")
                    try await run.client.waitForEvent("command_failed", after: mark, base: "things2mqtt") { $0["alias"] == "nobody" }
                })
        ),
        (
            "mosquitto_sub -v -t 'things2mqtt/bridge/response/#'",
            .receives(count: 3, seconds: 20, matching: { topic, text in topic.hasPrefix("things2mqtt/bridge/response/") && payload(text, "status", is: "ok") })
        ),
        (
            #"mosquitto_pub -t things2mqtt/bridge/request/health_check -m '{"transaction": 1}'"#,
            .effect { run, mark in
                let response = try await run.response("health_check", after: mark)
                guard response["transaction"] == 1, response["data"]?["healthy"] == true else {
                    throw TestFailure("health_check response: \(response.jsonString)")
                }
            }
        ),
        (
            #"mosquitto_pub -t things2mqtt/bridge/request/device/rename -m '{"from":"lifx_d073d5000001","to":"kitchen/ceiling","homeassistant_rename":true}'"#,
            .effect { run, mark in
                let response = try await run.response("device/rename", after: mark)
                guard response["data"]?["to"] == "kitchen/ceiling" else { throw TestFailure("rename response: \(response.jsonString)") }
                try await run.state("kitchen/ceiling", "the ceiling light under its new alias") { $0["state"] != nil }
                try await waitUntil("things2mqtt/living_room/ceiling to be cleared") { run.latest("living_room/ceiling") == nil }
            }
        ),
        (
            #"mosquitto_pub -t things2mqtt/bridge/request/options -m '{"options":{"log_level":"debug"}}'"#,
            .effect { run, mark in
                let response = try await run.response("options", after: mark)
                guard response["data"]?["log_level"] == "debug" else { throw TestFailure("options response: \(response.jsonString)") }
                try await run.state("bridge/info", "log level debug") { $0["log_level"] == "debug" }
            }
        ),
        (
            "mosquitto_sub -v -t 'things2mqtt/hall/remote/event'",
            .receives(count: 1, seconds: 15, matching: { _, text in payload(text, "action", is: "button_press") })
        ),
        (
            "mosquitto_sub -v -t 'things2mqtt/+/+/event'",
            .receives(count: 1, seconds: 15, matching: { topic, text in
                topic == "things2mqtt/hall/remote/event" && payload(text, "action", is: "button_press")
            })
        ),
    ]

    /// The demo's phone, which only `ble/permit` lets in.
    static let phone = "ble_5a1122334455"

    /// Whether a payload is a `bridge/event` of `type` about the device `id` or `alias`.
    static func isEvent(_ text: String, _ type: String, id: String? = nil, alias: String? = nil) -> Bool {
        guard let json = JSONValue.parse(Array(text.utf8)), json["type"]?.stringValue == type else { return false }
        return (id.map { json["data"]?["id"]?.stringValue == $0 } ?? true) && (alias.map { json["data"]?["alias"]?.stringValue == $0 } ?? true)
    }
}
