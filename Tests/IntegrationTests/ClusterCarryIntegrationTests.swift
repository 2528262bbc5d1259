import BridgeCore
import Foundation
import Testing
import TestSupport

@Suite("A device's state travels with its claim", .tags(.integration, .process), .timeLimit(.minutes(3)), .needs(.broker, .busMock))
struct ClusterCarryIntegrationTests {
    typealias Cluster = ClusterIntegrationTests
    typealias Connections = ClusterConnectionIntegrationTests

    @Test("a Nova lit (ON, 123) through the kitchen moves to the bedroom and its kitchen link drops: the bedroom lights it and its state says so")
    func litNovaMoves() async throws {
        let broker = try await Broker.start(logPublishes: true)
        let (kitchen, kitchenBlueZ) = try await Cluster.bridge("kitchen", room: "kitchen", broker: broker)
        let (bedroom, bedroomBlueZ) = try await Cluster.bridge("bedroom", room: "bedroom", broker: broker)
        let client = try await TestClient.connect(to: broker)
        let claims = "t2m/_cluster/claims/\(Cluster.nova)"
        let state = "t2m/\(Cluster.nova)"
        try await client.subscribe(claims)
        try await client.subscribe(state)
        try await client.subscribe("t2m/bridge/+/event")

        let before = Connections.advertise(Connections.novaPath, [kitchenBlueZ, bedroomBlueZ]) { index, _ in index == 0 ? -55 : -85 }
        try await broker.waitForRetained(claims, timeout: .seconds(10)) { $0.json?["owner"] == "kitchen" }
        client.publish("t2m/\(Cluster.nova)/set", #"{"state":"ON","brightness":123}"#)
        try await broker.waitForRetained(state, timeout: .seconds(15)) {
            $0.json?["state"] == "ON" && $0.json?["brightness"] == 123 && $0.json?["status"] == "ready"
        }
        #expect(try await NovaTests().writes(kitchenBlueZ).contains { $0.contains(":L,") })
        before.cancel()

        // The flash is carried to the bedroom, silent while connected; the kitchen's link drops and its
        // reconnects fail.
        let mark = client.mark
        let after = Connections.advertise(Connections.novaPath, [kitchenBlueZ, bedroomBlueZ]) { index, _ in index == 0 ? -85 : -55 }
        defer { after.cancel() }
        try await kitchenBlueZ.mock("FailNextConnects", [.string(Connections.novaPath), .uint32(1000), .string("le-connection-abort-by-local")])
        try await kitchenBlueZ.mock("LoseConnection", [.string(Connections.novaPath)])
        let passed = try await client.waitForMessage(topic: claims, after: mark, timeout: .seconds(20)) {
            $0.json?["owner"] == "bedroom"
        }
        #expect(passed.json?["release"] == "kitchen", "\(passed)")
        #expect(passed.json?["state"]?["state"] == "ON" && passed.json?["state"]?["brightness"] == 123, "\(passed)")
        #expect(passed.json?["state"]?["room"] == nil && passed.json?["state"]?["status"] == nil, "only settable keys: \(passed)")
        try await waitUntil("the bedroom writes an ON frame", timeout: .seconds(15)) {
            try await NovaTests().writes(bedroomBlueZ).contains { $0.contains(":L,") }
        }
        // Told apart by its room, not by when the claim was seen: the bedroom may light the flash and publish
        // before this test has taken the claim message in.
        let lit = try await client.waitForMessage(topic: state, after: mark, timeout: .seconds(10)) { message in
            message.json?["state"] == "ON" && message.json?["status"] == "ready" && message.json?["room"] == "bedroom"
        }
        let brightness = lit.json?["brightness"]?.doubleValue ?? 0
        #expect(abs(brightness - 123) <= 2, "\(lit)")
        // The state after the hand-over comes from the new owner alone; the last word is ON.
        try await Task.sleep(for: .seconds(1))
        #expect(client.messages(on: state).last?.json?["state"] == "ON")
        #expect(broker.publishers(of: state).contains("things2mqtt-bedroom"))
        #expect(try await Cluster.connected(bedroomBlueZ, Cluster.novaAddress))
        #expect(try await Cluster.connected(kitchenBlueZ, Cluster.novaAddress) == false)
        let failures = client.messages(on: "t2m/bridge/+/event").compactMap(\.json).filter { $0["type"] == "command_failed" }
        #expect(failures.isEmpty, "\(failures)")
        await client.close()
        #expect(try await kitchen.terminate() == 0)
        #expect(try await bedroom.terminate() == 0)
    }
}
