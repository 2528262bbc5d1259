import BridgeCore
import Foundation
import Testing
import TestSupport

/// The drivers' own counters on `/metrics`, moved by the simulators the daemon runs against.
@Suite("Frontend /metrics: the drivers' counters move with the simulators", .serialized, .timeLimit(.minutes(3)), .needs(.broker))
struct DriverMetricsTests {
    static func scrape(_ port: Int) async throws -> [String: Double] {
        try MetricsTests.samples(try await MetricsTests.get("http://127.0.0.1:\(port)/metrics").body)
    }

    /// Waits until `name` reads more than `than`, and returns what it reads.
    @discardableResult
    static func moved(_ name: String, above than: Double, port: Int, timeout: Duration = .seconds(20)) async throws -> Double {
        try await waitForValue("\(name) above \(than)", timeout: timeout, every: .milliseconds(100)) {
            try await scrape(port)[name].flatMap { $0 > than ? $0 : nil }
        }
    }

    @Test("LIFX: requests, failures, 429s and the rate budget left, against the cloud simulator")
    func lifx() async throws {
        let rig = try await DaemonRig.start()
        let mqtt = try await TestClient.connect(to: rig.broker)
        let first = try await Self.scrape(rig.port)
        let requests = try #require(first["things2mqtt_lifx_requests_total"])
        #expect(requests >= 1)
        let remaining = try #require(first["things2mqtt_lifx_rate_remaining"])
        #expect(remaining >= 0 && remaining < 120)
        let failures = first["things2mqtt_lifx_request_failures_total"] ?? 0
        let limited = first["things2mqtt_lifx_rate_limited_total"] ?? 0
        mqtt.publish("things2mqtt/lifx_d073d5000001/set", #"{"state":"ON","brightness":12}"#)
        try await Self.moved("things2mqtt_lifx_requests_total", above: requests, port: rig.port)
        rig.lifx.failNext(1, status: 500)
        _ = try await mqtt.request("lifx/refresh", "{}", base: "things2mqtt")
        try await Self.moved("things2mqtt_lifx_request_failures_total", above: failures, port: rig.port)
        rig.lifx.failNext(1, status: 429)
        _ = try await mqtt.request("lifx/refresh", "{}", base: "things2mqtt")
        try await Self.moved("things2mqtt_lifx_rate_limited_total", above: limited, port: rig.port)
        await mqtt.close()
        try await rig.stop()
    }

    @Test("BLE and EV3 on the demo: adverts received and decoded, connects; polls, frames, and timeouts and a reconnect of a stalled brick", .needs(.busMock))
    func demo() async throws {
        let rig = try await DemoRig.start()
        do {
            let port = rig.frontendPort
            let adverts = try await Self.moved("things2mqtt_ble_adverts_received_total", above: 0, port: port)
            let decoded = try await Self.moved("things2mqtt_ble_adverts_decoded_total", above: 0, port: port)
            // The demo's rules connect the heart-rate strap and the closest Nova.
            try await Self.moved("things2mqtt_ble_connects_total", above: 0, port: port)
            let polls = try await Self.moved("things2mqtt_ev3_polls_total", above: 0, port: port)
            let sent = try await Self.moved("things2mqtt_ev3_frames_sent_total", above: 0, port: port)
            let received = try await Self.moved("things2mqtt_ev3_frames_received_total", above: 0, port: port)
            try await Self.moved("things2mqtt_ble_adverts_received_total", above: adverts, port: port)
            try await Self.moved("things2mqtt_ble_adverts_decoded_total", above: decoded, port: port)
            try await Self.moved("things2mqtt_ev3_polls_total", above: polls, port: port)
            try await Self.moved("things2mqtt_ev3_frames_sent_total", above: sent, port: port)
            try await Self.moved("things2mqtt_ev3_frames_received_total", above: received, port: port)
            let quiet = try await Self.scrape(port)
            #expect(quiet["things2mqtt_ev3_timeouts_total"] ?? 0 == 0)
            #expect(quiet["things2mqtt_ble_adverts_dropped_total"] ?? 0 == 0)
            // A brick that stops answering times out, and once it answers again the link reconnects.
            rig.ev3.setFault(.stall)
            try await Self.moved("things2mqtt_ev3_timeouts_total", above: 0, port: port)
            rig.ev3.setFault(.none)
            try await Self.moved("things2mqtt_ev3_reconnects_total", above: quiet["things2mqtt_ev3_reconnects_total"] ?? 0, port: port, timeout: .seconds(60))
        } catch {
            _ = try? await rig.stop()
            throw error
        }
        _ = try await rig.stop()
    }
}
