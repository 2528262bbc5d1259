import BridgeCore
import Foundation
import LIFXSimulator
import Testing
import TestSupport

/// Offline lights, rate limits, server errors and refused tokens.
@Suite("LIFX failures", .serialized, .needs(.broker))
struct LIFXFailureTests {
    @Test("an offline light: optimistic state, then reverted and re-published, with a command_failed event")
    func offlineReverts() async throws {
        let harness = try await LIFXHarness.start()
        let topic = "\(harness.base)/lifx_d073d5000002"
        let before = try #require(try await harness.broker.retainedJSON(topic))
        harness.simulator.updateLight(id: "d073d5000002") { $0.connected = false }
        let mark = harness.client.mark
        harness.set("lifx_d073d5000002", #"{"brightness":10}"#)
        try await harness.client.waitForMessage(topic: topic, after: mark) { $0.json?["brightness"] == 10 }
        let event = try await harness.client.waitForMessage(topic: "\(harness.base)/bridge/event", after: mark) {
            $0.json?["type"] == "command_failed"
        }
        let reason = event.json?["data"]?["error"]?.stringValue ?? ""
        #expect(reason.contains("Floor Lamp") && reason.contains("offline"), "\(reason)")
        #expect(event.json?["data"]?["id"] == "lifx_d073d5000002")
        try await harness.client.waitForMessage(topic: topic, after: mark) { $0.json?["brightness"] == before["brightness"] }
        try await harness.broker.waitForRetained("\(topic)/availability", equals: ["state": "offline"])
        #expect(try await harness.broker.retainedJSON(topic)?["brightness"] == before["brightness"])
        try await harness.stop()
    }

    @Test("after a 429 nothing is sent before the reset time, then the command is delivered")
    func rateLimitHoldsCommands() async throws {
        let harness = try await LIFXHarness.start()
        let reset = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3).rounded(.up))
        harness.simulator.rateLimit(until: reset)
        harness.simulator.clearRequests()
        harness.set("lifx_d073d5000002", #"{"state":"ON","brightness":200}"#)
        let delivered = try await harness.requests(timeout: .seconds(15)) { $0.method == "PUT" && $0.status == 207 }
        let writes = harness.writes
        let limited = writes.filter { $0.status == 429 }
        #expect(!limited.isEmpty, "the first attempt met the limit")
        #expect(limited.count <= 2, "no hammering while limited: \(limited.count) attempts")
        #expect(delivered[0].receivedAt >= reset, "sent \(reset.timeIntervalSince(delivered[0].receivedAt)) s before the reset")
        #expect(delivered[0].json == ["power": "on", "brightness": 0.7843])
        #expect(harness.simulator.light(id: "d073d5000002").map { abs($0.brightness - 0.7843) < 0.001 } == true)
        try await harness.stop()
    }

    @Test("a 429 whose reset has passed by the host's clock is not retried in a hot loop; the server's Date sets the wait")
    func rateLimitWithSkewedClock() async throws {
        let harness = try await LIFXHarness.start()
        // The cloud's clock runs a minute behind, so its reset epoch lies in the host's past.
        harness.simulator.setClockOffset(.seconds(-60))
        let reset = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 4).rounded(.up))
        harness.simulator.rateLimit(until: reset)
        harness.simulator.clearRequests()
        harness.set("lifx_d073d5000002", #"{"state":"ON","brightness":100}"#)
        let first = try await harness.requests { $0.status == 429 }
        try await Task.sleep(for: .milliseconds(2_500))
        let window = first[0].receivedAt.addingTimeInterval(2.5)
        let limited = harness.simulator.requests().filter { $0.status == 429 && $0.receivedAt <= window }
        #expect(limited.count <= 3, "\(limited.count) requests answered 429 within 2.5 s")
        let delivered = try await harness.requests(timeout: .seconds(15)) { $0.method == "PUT" && $0.status == 207 }
        #expect(delivered[0].receivedAt >= reset, "sent \(reset.timeIntervalSince(delivered[0].receivedAt)) s before the reset")
        #expect(delivered[0].json == ["power": "on", "brightness": 0.3922])
        try await harness.stop()
    }

    @Test("5xx answers are retried with back-off and the command still lands")
    func serverErrorsRetry() async throws {
        let harness = try await LIFXHarness.start()
        harness.simulator.clearRequests()
        harness.simulator.failNext(2, status: 503)
        harness.set("lifx_d073d5000002", #"{"color":{"h":30,"s":100}}"#)
        let delivered = try await harness.requests(timeout: .seconds(15)) { $0.method == "PUT" && $0.status == 207 }
        #expect(delivered[0].json == ["color": "hue:30 saturation:1"])
        #expect(harness.writes.filter { $0.status == 503 }.count == 2)
        try await harness.stop()
    }

    @Test("a refused token: status unauthorized in bridge/info, one log line, no hot loop")
    func unauthorized() async throws {
        let harness = try await LIFXHarness.start(token: "wrong-token-abcdef", pollInterval: "1s", expectDevices: nil)
        let info = try await harness.broker.waitForRetained("\(harness.base)/bridge/info") {
            $0.json?["integrations"]?["lifx"]?["status"] == "unauthorized"
        }
        #expect(info.json?["integrations"]?["lifx"]?["detail"]?.stringValue?.contains("401") == true)
        try await Task.sleep(for: .seconds(4))
        let attempts = harness.simulator.requests().count
        #expect(attempts <= 2, "\(attempts) requests in 4 s with a refused token")
        let lines = harness.bridge.stderr.split(separator: "\n").filter { $0.contains("refused the token") && $0.contains("ERROR") }
        #expect(lines.count == 1, "\(lines)")
        #expect(!harness.bridge.stderr.contains("wrong-token-abcdef"))
        #expect(try await harness.stop() == 0)
    }

    @Test("a slow cloud answer to a request does not hold up the bridge")
    func slowRequestDoesNotBlock() async throws {
        let harness = try await LIFXHarness.start()
        harness.simulator.setLatency(.seconds(3))
        let mark = harness.client.mark
        harness.client.publish("\(harness.base)/bridge/request/lifx/validate_color", ##"{"color":"#00ff00","transaction":1}"##)
        harness.client.publish("\(harness.base)/bridge/request/health_check", #"{"transaction":2}"#)
        let health = try await harness.client.waitForMessage(topic: "\(harness.base)/bridge/response/health_check", after: mark)
        #expect(health.json?["status"] == "ok")
        #expect(harness.client.messages(on: "\(harness.base)/bridge/response/lifx/validate_color").isEmpty)
        let color = try await harness.client.waitForMessage(topic: "\(harness.base)/bridge/response/lifx/validate_color", after: mark)
        #expect(color.json?["status"] == "ok" && color.json?["transaction"] == 1)
        #expect(color.json?["data"]?["hue"] == 120)
        harness.simulator.setLatency(.zero)
        try await harness.stop()
    }

    @Test("the token never appears in logs, bridge/info or events")
    func tokenStaysSecret() async throws {
        let harness = try await LIFXHarness.start(logLevel: "trace")
        harness.simulator.failNext(1, status: 500)
        harness.set("lifx_d073d5000002", #"{"state":"OFF"}"#)
        _ = try await harness.requests(timeout: .seconds(10)) { $0.method == "PUT" && $0.status == 207 }
        harness.client.publish("\(harness.base)/bridge/request/lifx/validate_color", ##"{"color":"#ff0000"}"##)
        try await harness.client.waitForMessage(topic: "\(harness.base)/bridge/response/lifx/validate_color")
        let info = try #require(try await harness.broker.retained("\(harness.base)/bridge/info"))
        #expect(info.json?["config"]?["lifx"]?["token"] == "***")
        #expect(try await harness.stop() == 0)
        let everything = harness.bridge.stderr + harness.client.messages.map(\.text).joined()
        #expect(!everything.contains(LIFXHarness.token))
        #expect(harness.bridge.stderr.contains("DEBUG"), "the log was captured at debug level")
    }
}
