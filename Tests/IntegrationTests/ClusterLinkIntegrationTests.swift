import BridgeCore
import Foundation
import Testing
import TestSupport

/// A connected peripheral stops advertising, to every bridge: the stand-ins here are one device heard by two
/// radios, so while either holds the Nova's link neither hears an advert.
@Suite("A connected Nova stays with its bridge; a dropped link that cannot be mended moves it once", .tags(.integration, .process), .timeLimit(.minutes(3)), .needs(.broker, .busMock))
struct ClusterLinkIntegrationTests {
    typealias Cluster = ClusterIntegrationTests
    static let novaPath = BlueZStandIn.devicePath(Cluster.novaAddress)

    /// Adverts from the Nova, `rssi` by stand-in, silent while any stand-in holds its connection.
    static func advertise(_ standIns: [BlueZStandIn], rssi: @escaping @Sendable (Int) -> Int16) -> Task<Void, Never> {
        ClusterConnectionIntegrationTests.advertise(novaPath, standIns) { index, _ in rssi(index) }
    }

    @Test("default timings: connected in the kitchen it stays there 65 s, claim renewed; the link drops, the kitchen's reconnects fail: the bedroom connects within 15 s and a /set OFF sent at the drop runs once, there")
    func connectedStaysThenMovesOnce() async throws {
        let broker = try await Broker.start(logPublishes: true)
        let (kitchen, kitchenBlueZ) = try await Cluster.bridge("kitchen", room: "kitchen", broker: broker, sensor: false, defaultTimings: true)
        let (bedroom, bedroomBlueZ) = try await Cluster.bridge("bedroom", room: "bedroom", broker: broker, sensor: false, defaultTimings: true)
        let client = try await TestClient.connect(to: broker)
        let claims = "t2m/_cluster/claims/\(Cluster.nova)"
        let state = "t2m/\(Cluster.nova)"
        try await client.subscribe(claims)
        try await client.subscribe(state)
        try await client.subscribe("t2m/_cluster/renew/+")
        try await client.subscribe("t2m/bridge/+/event")

        // The kitchen hears the flash far better: it claims and connects it, and lights it.
        let near = Self.advertise([kitchenBlueZ, bedroomBlueZ]) { $0 == 0 ? -55 : -85 }
        try await broker.waitForRetained(claims, timeout: .seconds(15)) { $0.json?["owner"] == "kitchen" }
        client.publish("t2m/\(Cluster.nova)/set", #"{"state":"ON","brightness":123}"#)
        try await broker.waitForRetained(state, timeout: .seconds(20)) {
            $0.json?["state"] == "ON" && $0.json?["brightness"] == 123 && $0.json?["status"] == "ready"
        }
        near.cancel()

        // Carried next to the bedroom: the bedroom would hear it 45 dB louder, but a connected flash sends no
        // adverts. For 65 s (past the 30 s claim_timeout and the 60 s away_after) nothing moves, the kitchen
        // renews its claim, and the flash stays in the kitchen, not `not_home`.
        let mark = client.mark
        let far = Self.advertise([kitchenBlueZ, bedroomBlueZ]) { $0 == 0 ? -85 : -40 }
        defer { far.cancel() }
        try await Task.sleep(for: .seconds(65))
        let renewed = client.messages(on: "t2m/_cluster/renew/kitchen").filter { $0.index >= mark }
            .filter { $0.json?["devices"]?[Cluster.nova] == 1 }
        #expect(renewed.count >= 6, "kitchen renewals of the Nova in 65 s: \(renewed.count)")
        // The same claim may be written again to place the flash in a room; it changes no hands.
        let claimsMeanwhile = client.messages(on: claims).filter { $0.index >= mark }
        #expect(claimsMeanwhile.allSatisfy { $0.json?["owner"] == "kitchen" && $0.json?["term"] == 1 }, "\(claimsMeanwhile)")
        #expect(try await broker.retainedJSON(claims)?["owner"] == "kitchen")
        #expect(try await broker.retainedJSON(state)?["room"] == "kitchen")
        #expect(try await kitchenBlueZ.connectionSpans(Cluster.novaAddress).count == 1, "the kitchen kept its one connection")
        let bedroomAttempts = try await bedroomBlueZ.mock("GetConnectAttempts", [.string(Self.novaPath)]).first?.array ?? []
        #expect(bedroomAttempts.isEmpty, "the bedroom never tried to connect the flash")
        #expect(broker.publishers(of: state) == ["things2mqtt-kitchen"])

        // Now the link drops and the kitchen, out of range, fails every reconnect; an OFF is sent at the drop.
        try await kitchenBlueZ.mock("FailNextConnects", [.string(Self.novaPath), .uint32(1000), .string("le-connection-abort-by-local")])
        let dropMark = client.mark
        try await kitchenBlueZ.mock("LoseConnection", [.string(Self.novaPath)])
        let dropped = ContinuousClock.now
        _ = try await client.waitForMessage(topic: "t2m/bridge/kitchen/event", after: dropMark, timeout: .seconds(5)) {
            $0.json?["type"] == "device_disconnected"
        }
        client.publish("t2m/\(Cluster.nova)/set", "OFF")
        try await waitUntil("the bedroom connects the Nova", timeout: .seconds(15)) {
            try await Cluster.connected(bedroomBlueZ, Cluster.novaAddress)
        }
        #expect(ContinuousClock.now - dropped <= .seconds(15))
        try await broker.waitForRetained(state, timeout: .seconds(10)) {
            $0.json?["state"] == "OFF" && $0.json?["status"] == "ready"
        }
        try await Task.sleep(for: .seconds(3))

        // One hand-over, term 1 to term 2; the kitchen's flash saw nothing after the drop, the bedroom's one OFF.
        let owners = client.messages(on: claims).compactMap { $0.json?["owner"]?.stringValue }
        #expect(owners.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } } == ["kitchen", "bedroom"])
        #expect(Set(client.messages(on: claims).compactMap { $0.json?["term"]?.doubleValue }) == [1, 2])
        let kitchenWrites = try await NovaTests().writes(kitchenBlueZ)
        let bedroomWrites = try await NovaTests().writes(bedroomBlueZ)
        #expect(!kitchenWrites.contains { $0.contains(":O)") }, "\(kitchenWrites)")
        #expect(bedroomWrites.filter { $0.contains(":O)") }.count == 1, "\(bedroomWrites)")
        #expect(!bedroomWrites.contains { $0.contains(":L,") }, "\(bedroomWrites)")
        for one in try await kitchenBlueZ.connectionSpans(Cluster.novaAddress) {
            for other in try await bedroomBlueZ.connectionSpans(Cluster.novaAddress) {
                #expect(!one.overlaps(other), "kitchen \(one) and bedroom \(other) overlap")
            }
        }
        let failures = client.messages(on: "t2m/bridge/+/event").filter { $0.index >= dropMark }.compactMap(\.json)
            .filter { $0["type"] == "command_failed" }
        #expect(failures.isEmpty, "\(failures)")
        await client.close()
        #expect(try await kitchen.terminate() == 0)
        #expect(try await bedroom.terminate() == 0)
    }
}
