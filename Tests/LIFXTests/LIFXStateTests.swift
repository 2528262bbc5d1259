import BridgeCore
import Foundation
import LIFXSimulator
import Testing
import TestSupport

/// Published state, coalescing, and Home Assistant discovery for LIFX lights.
@Suite("LIFX state and discovery", .serialized, .needs(.broker))
struct LIFXStateTests {
    @Test("every light, group and the scenes device is published retained in Home Assistant's JSON light shape")
    func statePublished() async throws {
        let harness = try await LIFXHarness.start()
        let floor = try #require(try await harness.broker.retainedJSON("\(harness.base)/lifx_d073d5000002"))
        #expect(floor["state"] == "ON")
        #expect(floor["color_mode"] == "hs")
        #expect(floor["color"] == ["h": 36, "s": 70])
        #expect(floor["brightness"] == 127)
        #expect(floor["label"] == "Floor Lamp")
        #expect(floor["group"] == "Living Room")
        #expect(floor["location"] == "Home")
        #expect(floor["connected"] == true)
        #expect(floor["last_seen"]?.stringValue != nil)
        let white = try #require(try await harness.broker.retainedJSON("\(harness.base)/lifx_d073d5000003"))
        #expect(white["color"] == nil)
        #expect(white["color_mode"] == "color_temp")
        #expect(white["color_temp"] == 2700)
        let group = try #require(try await harness.broker.retainedJSON("\(harness.base)/lifx_group_06e3ec50395511e9a0757200055bf1c0"))
        #expect(group["members"] == ["Ceiling", "Floor Lamp", "Reading Lamp"])
        #expect(group["state"] == "ON")
        try await harness.broker.waitForRetained("\(harness.base)/lifx_d073d5000002/availability", equals: ["state": "online"])
        let devices = try #require(try await harness.broker.retainedJSON("\(harness.base)/bridge/devices"))
        guard case .array(let list) = devices else { Issue.record("bridge/devices is not an array"); return }
        let ids = Set(list.compactMap { entry in entry["id"]?.stringValue })
        #expect(ids.isSuperset(of: [
            "lifx_d073d5000001", "lifx_d073d5000005", "lifx_group_1c8de82b81f445e7cfaafae49b259c71",
            "lifx_account_cc7e033643c84f00b874830690884adc",
        ]))
        try await harness.stop()
    }

    @Test("a poll that only shows quantisation noise publishes nothing; a real change is published")
    func noiseIsNotRepublished() async throws {
        let harness = try await LIFXHarness.start(pollInterval: "1s")
        let topic = "\(harness.base)/lifx_d073d5000004"
        try await Task.sleep(for: .seconds(1.5))
        let mark = harness.client.mark
        harness.simulator.updateLight(id: "d073d5000004") { $0.brightness += 1.0 / 65535 }
        try await Task.sleep(for: .seconds(2.5))
        #expect(harness.client.messages(on: topic).filter { $0.index >= mark }.isEmpty)
        harness.simulator.updateLight(id: "d073d5000004") { $0.power = true }
        try await harness.client.waitForMessage(topic: topic, after: mark) { $0.json?["state"] == "ON" }
        try await harness.stop()
    }

    @Test("/get polls at once: a change made in the LIFX app shows up without waiting for the poll interval")
    func getRefreshes() async throws {
        let harness = try await LIFXHarness.start(pollInterval: "5m")
        let topic = "\(harness.base)/lifx_d073d5000005"
        harness.simulator.updateLight(id: "d073d5000005") { $0.power = true }
        let mark = harness.client.mark
        harness.client.publish("\(harness.base)/lifx_d073d5000005/get", "")
        try await harness.client.waitForMessage(topic: topic, after: mark, timeout: .seconds(5)) { $0.json?["state"] == "ON" }
        try await harness.stop()
    }

    @Test("device status: a quick write is one message; a light is busy once its write waits over a second, ready once the cloud took it, unavailable when offline")
    func deviceStatus() async throws {
        let harness = try await LIFXHarness.start()
        let topic = "\(harness.base)/lifx_d073d5000002"
        #expect(try await harness.broker.retainedJSON(topic)?["status"] == "ready")
        var mark = harness.client.mark
        harness.simulator.clearRequests()
        harness.set("lifx_d073d5000002", #"{"brightness":20}"#)
        let quick = try await harness.client.waitForMessage(topic: topic, after: mark) { $0.json?["brightness"] == 20 }
        #expect(quick.json?["status"] == "ready")
        _ = try await harness.requests { $0.method == "PUT" }
        // Past the threshold: a write that already landed never made the light busy.
        try await Task.sleep(for: .milliseconds(1500))
        #expect(harness.client.messages(on: topic).filter { $0.index >= mark }.map { $0.json?["status"] } == ["ready"])

        harness.simulator.setLatency(.seconds(2))
        mark = harness.client.mark
        harness.set("lifx_d073d5000002", #"{"brightness":40}"#)
        let optimistic = try await harness.client.waitForMessage(topic: topic, after: mark) { $0.json?["brightness"] == 40 }
        #expect(optimistic.json?["status"] == "ready")
        let busy = try await harness.client.waitForMessage(topic: topic, after: optimistic.index) { $0.json?["status"] == "busy" }
        #expect(busy.json?["brightness"] == 40)
        try await harness.client.waitForMessage(topic: topic, after: busy.index) { $0.json?["status"] == "ready" }
        harness.simulator.setLatency(.zero)
        try await harness.broker.waitForRetained("\(harness.base)/bridge/devices") { message in
            guard case .array(let list)? = message.json else { return false }
            return list.contains { $0["id"] == "lifx_d073d5000002" && $0["device_status"] == "ready" && $0["status"] == "online" }
        }

        harness.simulator.updateLight(id: "d073d5000002") { $0.connected = false }
        mark = harness.client.mark
        harness.set("lifx_d073d5000002", #"{"brightness":10}"#)
        try await harness.client.waitForMessage(topic: topic, after: mark) { $0.json?["status"] == "unavailable" }
        let event = try await harness.client.waitForMessage(topic: "\(harness.base)/bridge/event", after: mark) {
            $0.json?["type"] == "device_disconnected"
        }
        #expect(event.json?["data"]?["id"] == "lifx_d073d5000002")
        #expect(event.json?["data"]?["status"] == "unavailable")
        try await harness.broker.waitForRetained("\(topic)/availability", equals: ["state": "offline"])
        try await harness.stop()
    }

    @Test("a dragged slider costs at most one write per 300 ms (3 for half a second) and ends at the last value; 10 lights change in one request")
    func coalescing() async throws {
        let harness = try await LIFXHarness.start(
            simulator: .generated(count: 10, groups: 1, token: LIFXHarness.token), expectDevices: 11)
        harness.simulator.clearRequests()
        let dragStart = ContinuousClock.now
        for step in 1...25 {
            harness.set("lifx_d073d5000001", "{\"state\":\"ON\",\"brightness\":\(step * 10)}")
            if step < 25 { try await Task.sleep(for: .milliseconds(20)) }
        }
        // Writes start at least 300 ms apart: those that start while the slider moves, and one after it for the
        // last value. A drag of 0.5 s gives 3; a loaded machine that stretches the drag allows one more per 300 ms.
        let dragged = (ContinuousClock.now - dragStart).inSeconds
        let allowed = Int((dragged / 0.3).rounded(.down)) + 2
        try await waitUntil("the slider's last value to reach the light", timeout: .seconds(5)) {
            (harness.simulator.light(id: "d073d5000001")?.brightness).map { abs($0 - 250.0 / 255) < 0.001 } ?? false
        }
        try await Task.sleep(for: .seconds(1))
        let slider = harness.writes
        #expect(slider.count <= allowed, "\(slider.count) writes for a \(dragged) s drag: \(slider.map(\.body))")
        #expect(slider.allSatisfy { $0.status == 207 })
        try await harness.broker.waitForRetained("\(harness.base)/lifx_d073d5000001") { $0.json?["brightness"] == 250 }
        harness.simulator.clearRequests()
        for light in 1...10 {
            harness.set(String(format: "lifx_d073d5%06x", light), #"{"state":"ON","color":{"h":200,"s":50}}"#)
        }
        let batch = try await harness.requests { $0.method == "PUT" }
        try await Task.sleep(for: .seconds(1))
        #expect(harness.writes.count == 1)
        #expect(batch[0].path == "/v1/lights/states")
        guard case .array(let states)? = batch[0].json?["states"] else { Issue.record("no states array"); return }
        #expect(states.count == 10)
        #expect(states.first?["color"] == "hue:200 saturation:0.5")
        try await harness.stop()
    }

    @Test("discovery: colour and white bulbs get their colour modes and kelvin range; legacy mode speaks mireds", arguments: [false, true])
    func discovery(legacy: Bool) async throws {
        let harness = try await LIFXHarness.start(legacy: legacy)
        let colour = try #require(try await harness.broker.retainedJSON("homeassistant/light/lifx_test_lifx_d073d5000002/light/config"))
        #expect(colour["schema"] == "json")
        #expect(colour["supported_color_modes"] == ["hs", "color_temp"])
        #expect(colour["effect_list"] == ["breathe", "pulse", "stop"])
        #expect(colour["unique_id"] == "lifx_d073d5000002_light_lifx_test")
        #expect(colour["command_topic"] == "lifx_test/lifx_d073d5000002/set")
        // No alias configured: Home Assistant shows the LIFX label and derives the entity id from it.
        #expect(colour["device"]?["name"] == "Floor Lamp")
        #expect(colour["default_entity_id"] == "light.floor_lamp")
        let white = try #require(try await harness.broker.retainedJSON("homeassistant/light/lifx_test_lifx_d073d5000003/light/config"))
        #expect(white["supported_color_modes"] == ["color_temp"])
        if legacy {
            #expect(white["min_mireds"] == 154 && white["max_mireds"] == 370)
            #expect(white["color_temp_kelvin"] == nil)
            #expect(colour["color_mode"] == true && colour["brightness"] == true)
            #expect(colour["device"]?["model_id"] == nil)
            let state = try #require(try await harness.broker.retainedJSON("lifx_test/lifx_d073d5000003"))
            #expect(state["color_temp"] == 370)
        } else {
            #expect(white["color_temp_kelvin"] == true)
            #expect(white["min_kelvin"] == 2700 && white["max_kelvin"] == 6500)
            #expect(colour["device"]?["model_id"] != nil)
        }
        let scene = try await harness.broker.retainedMessages(under: "homeassistant/scene/#")
        let evening = try #require(scene.values.compactMap(\.json).first { $0["name"] == "Evening" })
        #expect(evening["command_topic"] != nil)
        #expect(evening["default_entity_id"] == "scene.evening")
        #expect(evening["device"]?["name"] == "LIFX scenes")
        try await harness.stop()
    }
}
