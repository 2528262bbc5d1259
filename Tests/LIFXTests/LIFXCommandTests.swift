import BridgeCore
import Foundation
import LIFXSimulator
import Testing
import TestSupport

/// Every kind of `/set` becomes the exact documented API request.
@Suite("LIFX commands through the bridge", .serialized, .needs(.broker))
struct LIFXCommandTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var alias: String
        var attribute: String?
        var payload: String
        var method: String
        var path: String
        var body: JSONValue
        var testDescription: String { "\(alias) \(attribute ?? "") \(payload)" }
    }

    static let floor = "/v1/lights/id:d073d5000002/state"
    static let cases: [Case] = [
        Case(alias: "lifx_d073d5000002", payload: #"{"state":"ON"}"#, method: "PUT", path: floor, body: ["power": "on"]),
        Case(alias: "lifx_d073d5000002", payload: "OFF", method: "PUT", path: floor, body: ["power": "off"]),
        Case(alias: "lifx_d073d5000002", payload: #"{"state":"ON","brightness":255,"transition":2}"#, method: "PUT", path: floor,
             body: ["power": "on", "brightness": 1, "duration": 2]),
        Case(alias: "lifx_d073d5000002", payload: #"{"brightness":128}"#, method: "PUT", path: floor, body: ["power": "on", "brightness": 0.502]),
        Case(alias: "lifx_d073d5000002", payload: #"{"color":{"h":120,"s":80}}"#, method: "PUT", path: floor, body: ["color": "hue:120 saturation:0.8"]),
        Case(alias: "lifx_d073d5000002", payload: #"{"color_temp":4000}"#, method: "PUT", path: floor, body: ["color": "kelvin:4000"]),
        Case(alias: "lifx_d073d5000002", payload: #"{"color_temp":250}"#, method: "PUT", path: floor, body: ["color": "kelvin:4000"]),
        Case(alias: "lifx_d073d5000002", attribute: "brightness", payload: "64", method: "PUT", path: floor, body: ["power": "on", "brightness": 0.251]),
        Case(alias: "lifx_d073d5000002", payload: #"{"effect":"pulse"}"#, method: "POST", path: "/v1/lights/id:d073d5000002/effects/pulse",
             body: ["color": "white", "period": 1, "cycles": 5, "persist": false, "power_on": true]),
        Case(alias: "lifx_d073d5000002", payload: #"{"flash":"short"}"#, method: "POST", path: "/v1/lights/id:d073d5000002/effects/pulse",
             body: ["color": "brightness:1", "period": 0.3, "cycles": 1, "persist": false, "power_on": true]),
        Case(alias: "lifx_d073d5000002", payload: #"{"effect":"stop"}"#, method: "POST", path: "/v1/lights/id:d073d5000002/effects/off",
             body: ["power_off": false]),
        Case(alias: "lifx_group_06e3ec50395511e9a0757200055bf1c0", payload: #"{"state":"OFF","transition":0.5}"#, method: "PUT",
             path: "/v1/lights/group_id:06e3ec50395511e9a0757200055bf1c0/state", body: ["power": "off", "duration": 0.5]),
        Case(alias: "lifx_d073d5000003", payload: #"{"color_temp":6500}"#, method: "PUT", path: "/v1/lights/id:d073d5000003/state",
             body: ["color": "kelvin:6500"]),
    ]

    @Test("each command is one request with the documented body")
    func exactBodies() async throws {
        let harness = try await LIFXHarness.start()
        for item in Self.cases {
            harness.simulator.clearRequests()
            harness.set(item.alias, item.payload, attribute: item.attribute)
            let seen = try await harness.requests { $0.method != "GET" }
            let request = try #require(seen.first)
            #expect(request.method == item.method, "\(item.testDescription)")
            #expect(request.path == item.path, "\(item.testDescription)")
            #expect(request.json == item.body, "\(item.testDescription): body \(request.body)")
            #expect(request.contentType == "application/json")
        }
        #expect(try await harness.stop() == 0)
    }

    @Test("a command accepted just before SIGTERM still reaches the cloud")
    func flushOnShutdown() async throws {
        let harness = try await LIFXHarness.start()
        harness.simulator.clearRequests()
        harness.set("lifx_d073d5000004", #"{"state":"ON"}"#)
        _ = try await harness.requests { $0.method == "PUT" }
        // The second write is held back by the write spacing, so it is still pending when SIGTERM arrives.
        let mark = harness.client.mark
        harness.set("lifx_d073d5000004", #"{"brightness":200}"#)
        try await harness.client.waitForMessage(topic: "\(harness.base)/lifx_d073d5000004", after: mark) { $0.json?["brightness"] == 200 }
        #expect(try await harness.bridge.terminate() == 0)
        let second = try await harness.requests(count: 2) { $0.method == "PUT" }
        #expect(second.last?.json == ["power": "on", "brightness": 0.7843])
        await harness.client.close()
        try await harness.simulator.stop()
    }

    @Test("TOGGLE turns a lit light off, and the state is published at once")
    func toggleIsOptimistic() async throws {
        let harness = try await LIFXHarness.start()
        let mark = harness.client.mark
        harness.set("lifx_d073d5000001", "TOGGLE")
        try await harness.client.waitForMessage(topic: "\(harness.base)/lifx_d073d5000001", after: mark) {
            $0.json?["state"] == "OFF"
        }
        let request = try #require(try await harness.requests { $0.method == "PUT" }.first)
        #expect(request.json == ["power": "off"])
        try await harness.stop()
    }

    @Test("lifx/toggle names its light by alias; the bridge resolves it")
    func toggleRequestByAlias() async throws {
        let harness = try await LIFXHarness.start(devicesYAML: "devices:\n  lifx_d073d5000002:\n    alias: floor\n")
        let mark = harness.client.mark
        harness.client.publish("\(harness.base)/bridge/request/lifx/toggle", #"{"device":"floor"}"#)
        let response = try await harness.client.waitForMessage(topic: "\(harness.base)/bridge/response/lifx/toggle", after: mark)
        #expect(response.json?["status"] == "ok", "\(response.text)")
        let toggle = try #require(try await harness.requests { $0.method == "POST" }.first)
        #expect(toggle.path == "/v1/lights/id:d073d5000002/toggle")
        harness.client.publish("\(harness.base)/bridge/request/lifx/toggle", #"{"device":"nobody"}"#)
        let refused = try await harness.client.waitForMessage(topic: "\(harness.base)/bridge/response/lifx/toggle", after: response.index + 1)
        #expect(refused.json?["error"] == "no device \"nobody\"")
        try await harness.stop()
    }

    @Test("a scene is activated through bridge/request/lifx/scene and the /set of the scenes device")
    func scenes() async throws {
        let harness = try await LIFXHarness.start()
        let mark = harness.client.mark
        harness.client.publish("\(harness.base)/bridge/request/lifx/scene", #"{"scene":"Evening","transaction":"t1"}"#)
        let response = try await harness.client.waitForMessage(topic: "\(harness.base)/bridge/response/lifx/scene", after: mark)
        #expect(response.json?["status"] == "ok")
        #expect(response.json?["transaction"] == "t1")
        let activation = try #require(try await harness.requests { $0.method == "PUT" }.first)
        #expect(activation.path == "/v1/scenes/scene_id:05bfb786-ec87-4766-a61a-8698b3e08b81/activate")
        harness.simulator.clearRequests()
        harness.set("lifx_account_cc7e033643c84f00b874830690884adc", #"{"scene":"05bfb786-ec87-4766-a61a-8698b3e08b81"}"#)
        _ = try await harness.requests { $0.path.hasSuffix("/activate") }
        harness.simulator.clearRequests()
        harness.set("lifx_account_cc7e033643c84f00b874830690884adc", #"{"scene":"Evening"}"#)
        _ = try await harness.requests { $0.path.hasSuffix("/activate") }
        harness.client.publish("\(harness.base)/bridge/request/lifx/scene", #"{"scene":"Nope"}"#)
        let error = try await harness.client.waitForMessage(topic: "\(harness.base)/bridge/response/lifx/scene") {
            $0.json?["status"] == "error"
        }
        #expect(error.json?["error"]?.stringValue?.contains("Evening") == true)
        try await harness.stop()
    }

    @Test("malformed and refused commands leave the bridge running and the light untouched")
    func malformed() async throws {
        let harness = try await LIFXHarness.start()
        harness.simulator.clearRequests()
        for payload in ["{not json", #"{"brightness":"bright"}"#, #"{"color":{"h":500,"s":10}}"#, #"{"effect":"disco"}"#, "", "[1,2]"] {
            let mark = harness.client.mark
            harness.set("lifx_d073d5000002", payload)
            let event = try await harness.client.waitForMessage(topic: "\(harness.base)/bridge/event", after: mark) {
                $0.json?["type"] == "command_failed"
            }
            #expect(event.json?["data"]?["alias"] == "lifx_d073d5000002")
        }
        let mark = harness.client.mark
        harness.set("lifx_d073d5000003", #"{"color":{"h":10,"s":10}}"#)
        let white = try await harness.client.waitForMessage(topic: "\(harness.base)/bridge/event", after: mark)
        #expect(white.json?["data"]?["error"]?.stringValue?.contains("no colour") == true)
        try await Task.sleep(for: .milliseconds(500))
        #expect(harness.writes.isEmpty)
        harness.set("lifx_d073d5000002", #"{"state":"ON"}"#)
        _ = try await harness.requests { $0.method == "PUT" }
        #expect(harness.bridge.isRunning)
        try await harness.stop()
    }
}
