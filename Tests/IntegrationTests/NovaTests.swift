import BridgeCore
import DBus
import Foundation
import Testing
import TestSupport

@Suite("Nova flashes as lights through the daemon and the BlueZ stand-in", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker, .busMock))
struct NovaTests {
    static let nova = "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01"
    static let request = nova + "/service0010/char0011"
    static let response = nova + "/service0010/char0013"

    /// The frames written to the Nova's FFF3 so far, as text, with their write type.
    func writes(_ standIn: BlueZStandIn) async throws -> [String] {
        // The Nova's GATT objects exist only once it has been connected.
        guard let reply = try? await standIn.mock("GetWrites", [.string(Self.request)]) else { return [] }
        return (reply.first?.array ?? []).compactMap { item in
            guard let fields = item.structure, fields.count == 2, let bytes = fields[0].bytes, let kind = fields[1].string else { return nil }
            return String(decoding: bytes, as: UTF8.self) + " " + kind
        }
    }

    func start() async throws -> (Broker, BlueZStandIn, BridgeProcess, TestClient) {
        let broker = try await Broker.start()
        let standIn = try await BlueZStandIn.start()
        try await standIn.mock("AddNova", [.string("hci0"), .string("AA:BB:CC:DD:EE:01")])
        let config = TestConfig.yaml(
            port: broker.port,
            extra: "devices:\n  ble_aabbccddee01:\n    alias: flash\nble:\n  enabled: true\n  rssi_interval: 0s\n  connect:\n    - match: {class: nova}\n      policy: never\n")
        let bridge = try BridgeProcess.start(config: config, environment: standIn.environment)
        try await bridge.waitUntilReady(on: broker)
        try await broker.waitForRetained("t2m/flash") { $0.json?["status"] == "available" }
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("t2m/#")
        return (broker, standIn, bridge, client)
    }

    @Test("ON connects the flash, writes the Nova frame with response, is confirmed by the ack and renewed before the timeout")
    func lightAndRenew() async throws {
        let (broker, standIn, bridge, client) = try await start()
        let discovery = try await broker.waitForRetained("homeassistant/light/t2m_ble_aabbccddee01/light/config")
        #expect(discovery.json?["effect_list"] == ["gentle", "warm", "bright", "neutral"])
        client.publish("t2m/flash/set", #"{"state":"ON","brightness":255,"color_temp":2700}"#)
        try await waitUntil("the first frame") { try await writes(standIn).first == "(01:L,FF,00,05DC) request" }
        do {
            try await broker.waitForRetained("t2m/flash") { $0.json?["state"] == "ON" && $0.json?["status"] == "ready" }
        } catch {
            Issue.record("\(error)\n\(bridge.stderr.suffix(3000))\n\(try await writes(standIn))")
            throw error
        }
        // Renewed at two thirds of 1500 ms while on; each renewal waits for the stand-in's ack, which a loaded
        // machine once held back past 5 s for two of them.
        try await waitUntil("a renewal", timeout: .seconds(15)) { try await writes(standIn).count >= 3 }
        #expect(try await writes(standIn).dropFirst().allSatisfy { $0.hasSuffix(":L,FF,00,05DC) request") })
        client.publish("t2m/flash/set", "OFF")
        do {
            try await waitUntil("the off frame") { try await writes(standIn).last?.contains(":O)") == true }
        } catch {
            Issue.record("\(error)\n\(bridge.stderr.suffix(2000))\n\(try await writes(standIn))")
            throw error
        }
        let count = try await writes(standIn).count
        try await Task.sleep(for: .seconds(1.5))
        #expect(try await writes(standIn).count == count, "no renewal after OFF")
        #expect(try await bridge.terminate() == 0)
        await client.close()
    }

    @Test("without an ack within 2 s the state is reverted and command_failed names the frame")
    func ackTimeout() async throws {
        let (broker, standIn, bridge, client) = try await start()
        // A 6 s timeout renews every 4 s: a loaded stand-in has time to ack the renewal before acks stop, and the
        // OFF goes out long before the next one. No effect: a preset's frames carry its own 1.5 s timeout, which
        // renews every second, so a renewal could go out just before the OFF, fail with the acks stopped, and be
        // the command_failed this test reads.
        client.publish("t2m/flash/set", #"{"state":"ON","timeout":6000}"#)
        do {
            try await broker.waitForRetained("t2m/flash") { $0.json?["state"] == "ON" && $0.json?["status"] == "ready" }
        } catch {
            Issue.record("\(error)\n\(bridge.stderr.suffix(3000))")
            throw error
        }
        // Acks stop right after a renewal went out and was acknowledged, so none is in flight when the OFF is sent.
        let renewals = try await writes(standIn).count
        #expect(try await writes(standIn).first?.hasSuffix(",1770) request") == true, "the frames carry the 6 s timeout")
        try await waitUntil("a renewal") { try await writes(standIn).count > renewals }
        try await Task.sleep(for: .milliseconds(500))
        try await standIn.mock("SetNovaAcks", [.string(Self.nova), .bool(false)])
        let mark = try await client.watchEvents()
        client.publish("t2m/flash/set", "OFF")
        // An ack for another request id while the OFF waits is logged and ignored: it confirms nothing.
        let off: String
        do {
            off = try await waitForValue("the off frame") { try await writes(standIn).last { $0.contains(":O)") } }
        } catch {
            Issue.record("\(error)\n\(bridge.stderr.suffix(20000))\n\(try await writes(standIn))")
            throw error
        }
        let pending = try #require(UInt8(off.dropFirst().prefix(2), radix: 16))
        let stray = Array(String(format: "(%02X:A)", pending &+ 7).utf8)
        try await standIn.mock("Notify", [.string(Self.response), .bytes(stray)])
        let event = try await client.waitForEvent("command_failed", after: mark)
        #expect(event["error"]?.stringValue?.contains("did not acknowledge") == true, "\(event)")
        #expect(event["error"]?.stringValue?.contains(":O)") == true, "the event names the frame: \(event)")
        // Busy while the OFF waited, then ready again, and never OFF: the flash did not say so.
        let busy = try await client.waitForMessage(topic: "t2m/flash", after: mark) { $0.json?["status"] == "busy" }
        try await client.waitForMessage(topic: "t2m/flash", after: busy.index) { $0.json?["status"] == "ready" }
        let states = client.messages(on: "t2m/flash").filter { $0.index >= mark }.map { $0.json?["state"] }
        #expect(states.allSatisfy { $0 == "ON" }, "\(states)")
        try await waitUntil("the stray ack in the log") { bridge.stderr.contains("not pending") }
        #expect(try await bridge.terminate() == 0)
        await client.close()
        withExtendedLifetime(standIn) {}
    }
}

@Suite("Nova flashes with slow acks", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker, .busMock))
struct NovaSlowAckTests {
    @Test("with 1.2 s acks ON shows busy, then ON with ready after the ack; renewals leave no gap and publish nothing")
    func slowAcks() async throws {
        let (broker, standIn, bridge, client) = try await NovaTests().start()
        try await standIn.mock("SetNovaAckDelay", [.string(NovaTests.nova), .double(1.2)])
        let mark = client.mark
        let sent = ContinuousClock.now
        client.publish("t2m/flash/set", #"{"state":"ON","brightness":255,"color_temp":2700}"#)
        let busy: ReceivedMessage
        do {
            busy = try await client.waitForMessage(topic: "t2m/flash", after: mark) { $0.json?["status"] == "busy" }
        } catch {
            Issue.record("\(error)\n\(bridge.stderr.suffix(3000))")
            throw error
        }
        #expect(busy.json?["state"] == "OFF", "busy with the state unchanged: \(busy)")
        let ready = try await client.waitForMessage(topic: "t2m/flash", after: mark) { $0.json?["state"] == "ON" }
        #expect(ContinuousClock.now - sent >= .seconds(1.1), "ON shown before the flash acknowledged")
        // The new state comes with ready, in one message: never ON while still busy.
        #expect(ready.json?["status"] == "ready", "\(ready)")
        let sequence = client.messages(on: "t2m/flash").filter { $0.index >= busy.index }.map { message in
            (message.json?["state"]?.stringValue ?? "-") + "/" + (message.json?["status"]?.stringValue ?? "-")
        }
        #expect(Array(sequence.prefix(2)) == ["OFF/busy", "ON/ready"], "\(sequence)")
        // Five renewals' worth of time while lit: nothing published, and every frame before the last ran out.
        try await Task.sleep(for: .seconds(6))
        let noise = client.messages(on: "t2m/flash").filter { $0.index > ready.index }
        #expect(noise.isEmpty, "renewals published: \(noise)")
        let times = try await standIn.mock("GetWriteTimes", [.string(NovaTests.request)]).first?.array?.compactMap(\.double) ?? []
        #expect(times.count >= 5, "\(times)")
        // Each frame must arrive before the timeout the previous one carried (1.5 s, or longer when acks are slow).
        let frames = try await NovaTests().writes(standIn)
        let timeouts = frames.map { frame in Double(Int(frame.split(separator: ",").last?.prefix(4) ?? "", radix: 16) ?? 0) / 1000 }
        #expect(timeouts.allSatisfy { $0 >= 1.5 }, "\(frames)")
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        for (gap, timeout) in zip(gaps, timeouts) {
            #expect(gap < timeout, "a frame \(gap) s after one that lasted \(timeout) s: \(frames) at \(times)")
        }
        #expect(try await bridge.terminate() == 0)
        await client.close()
        withExtendedLifetime(broker) {}
    }

    @Test("a Nova's state says OFF from the first message, before any command")
    func stateBeforeFirstCommand() async throws {
        let (broker, standIn, bridge, client) = try await NovaTests().start()
        let state = try await broker.waitForRetained("t2m/flash") { $0.json?["status"] != nil }
        #expect(state.json?["state"] == "OFF", "\(state)")
        let withoutState = client.messages(on: "t2m/flash").filter { $0.json?["state"] == nil }
        #expect(withoutState.isEmpty, "\(withoutState)")
        #expect(try await bridge.terminate() == 0)
        await client.close()
        withExtendedLifetime(standIn) {}
    }
}

@Suite("Nova flashes after a reconnect", .tags(.integration, .process), .timeLimit(.minutes(2)), .needs(.broker, .busMock))
struct NovaReconnectTests {
    @Test("after the flash was disconnected, the next command reconnects, turns notifications on again and is acknowledged")
    func reconnect() async throws {
        let (broker, standIn, bridge, client) = try await NovaTests().start()
        client.publish("t2m/flash/set", #"{"state":"ON","brightness":128}"#)
        try await broker.waitForRetained("t2m/flash") { $0.json?["state"] == "ON" && $0.json?["status"] == "ready" }
        let off = try await client.request("device/disconnect", #"{"device": "flash"}"#)
        #expect(off["status"] == "ok", "\(off)")
        try await broker.waitForRetained("t2m/flash") { $0.json?["status"] == "available" }
        let mark = try await client.watchEvents()
        client.publish("t2m/flash/set", #"{"state":"ON","brightness":255}"#)
        try await broker.waitForRetained("t2m/flash") { $0.json?["brightness"] == 255 && $0.json?["status"] == "ready" }
        // A renewal due while the flash was disconnected fails (the flash goes dark by its own timeout); the
        // command itself must not.
        let failures = client.messages(on: "t2m/bridge/event").filter { message in
            message.index >= mark && message.json?["type"] == "command_failed"
                && message.json?["data"]?["error"]?.stringValue?.contains("renewing") != true
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(try await bridge.terminate() == 0)
        await client.close()
        withExtendedLifetime(standIn) {}
    }
}
