import BridgeCore
import DBus
import Foundation
import Testing
import TestSupport

@Suite("Connections across bridges: free slots, a moving flash, a hand-over mid-frame, three bridges", .tags(.integration, .process), .timeLimit(.minutes(3)), .needs(.broker, .busMock))
struct ClusterConnectionIntegrationTests {
    typealias Cluster = ClusterIntegrationTests
    static let novaPath = BlueZStandIn.devicePath(Cluster.novaAddress)

    /// Adverts from the device at `path` on each stand-in, every 300 ms, until cancelled; `rssi` gives each
    /// stand-in's signal for the time since the task started. The stand-ins are one device heard by several
    /// radios: while any of them holds its connection, none hears an advert (a connected peripheral is silent).
    static func advertise(_ path: String, _ standIns: [BlueZStandIn], rssi: @escaping @Sendable (Int, Double) -> Int16) -> Task<Void, Never> {
        let start = ContinuousClock.now
        return Task {
            while !Task.isCancelled {
                let elapsed = (ContinuousClock.now - start) / .seconds(1)
                var connected = false
                for standIn in standIns where (try? await Self.connected(standIn, path)) == true { connected = true }
                if !connected {
                    for (index, standIn) in standIns.enumerated() { try? await standIn.advertise(path, rssi: rssi(index, elapsed)) }
                }
                try? await Task.sleep(for: .milliseconds(300))
            }
        }
    }

    /// Whether a stand-in's BlueZ has the device at `path` connected.
    static func connected(_ standIn: BlueZStandIn, _ path: String) async throws -> Bool {
        let connection = try await DBusConnection.connect(to: DBusAddress(standIn.daemon.address))
        defer { Task { await connection.close() } }
        let reply = try await connection.call(
            destination: "org.bluez", path: path, interface: "org.freedesktop.DBus.Properties",
            method: "Get", arguments: [.string("org.bluez.Device1"), .string("Connected")])
        return reply.first?.bool ?? false
    }

    @Test("no free slot on the best bridge: the second best claims the Nova and connects it, the best never tries")
    func noFreeSlot() async throws {
        let broker = try await Broker.start()
        let (kitchen, kitchenBlueZ) = try await Cluster.bridge(
            "kitchen", room: "kitchen", broker: broker, ble: "max_connections: 1", nova: false)
        let (bedroom, bedroomBlueZ) = try await Cluster.bridge(
            "bedroom", room: "bedroom", broker: broker, ble: "max_connections: 1", nova: false)
        try await broker.waitForRetained("t2m/_cluster/bridges/bedroom", timeout: .seconds(5)) { $0.json?["slots"] == 1 }
        // The kitchen's one slot goes to a second flash that only it hears.
        let other = "AA:BB:CC:DD:EE:02"
        try await kitchenBlueZ.mock("AddNova", [.string("hci0"), .string(other)])
        let otherAdverts = Self.advertise(BlueZStandIn.devicePath(other), [kitchenBlueZ]) { _, _ in -50 }
        defer { otherAdverts.cancel() }
        try await broker.waitForRetained("t2m/_cluster/bridges/kitchen", timeout: .seconds(15)) { $0.json?["slots"] == 0 }
        #expect(try await Cluster.connected(kitchenBlueZ, other))

        // Now the flash both hear appears, far better heard in the kitchen.
        for standIn in [kitchenBlueZ, bedroomBlueZ] { try await standIn.mock("AddNova", [.string("hci0"), .string(Cluster.novaAddress)]) }

        let adverts = Self.advertise(Self.novaPath, [kitchenBlueZ, bedroomBlueZ]) { index, _ in index == 0 ? -55 : -70 }
        defer { adverts.cancel() }
        let claim = try await broker.waitForRetained("t2m/_cluster/claims/\(Cluster.nova)", timeout: .seconds(10)) { $0.json != nil }
        #expect(claim.json?["owner"] == "bedroom", "the kitchen hears it 15 dB better but has no slot for it")
        try await waitUntil("the bedroom bridge connects the Nova", timeout: .seconds(15)) {
            try await Cluster.connected(bedroomBlueZ, Cluster.novaAddress)
        }
        try await broker.waitForRetained("t2m/_cluster/bridges/bedroom", timeout: .seconds(5)) { $0.json?["slots"] == 0 }
        try await Task.sleep(for: .seconds(2))
        #expect(try await broker.retainedJSON("t2m/_cluster/claims/\(Cluster.nova)")?["owner"] == "bedroom")
        let attempts = try await kitchenBlueZ.mock("GetConnectAttempts", [.string(Self.novaPath)]).first?.array ?? []
        #expect(attempts.isEmpty, "the kitchen never tried to connect the flash")
        #expect(try await kitchen.terminate() == 0)
        #expect(try await bedroom.terminate() == 0)
    }

    @Test("a Nova connected in the kitchen moves to the bedroom (−55 ↔ −85 dBm over 30 s): silent while connected, it stays; its link drops at the far end and the kitchen cannot reconnect: one hand-over, never two connections, a /set sent mid-hand-over runs once")
    func moving() async throws {
        let broker = try await Broker.start()
        let (kitchen, kitchenBlueZ) = try await Cluster.bridge("kitchen", room: "kitchen", broker: broker)
        let (bedroom, bedroomBlueZ) = try await Cluster.bridge("bedroom", room: "bedroom", broker: broker)
        // The kitchen's BlueZ is slow to drop the link, so the /set below surely arrives while the hand-over runs.
        try await kitchenBlueZ.mock("SetDisconnectDelay", [.string(Self.novaPath), .double(0.5)])
        let client = try await TestClient.connect(to: broker)
        let claims = "t2m/_cluster/claims/\(Cluster.nova)"
        try await client.subscribe(claims)
        try await client.subscribe("t2m/bridge/+/event")

        let steady = Self.advertise(Self.novaPath, [kitchenBlueZ, bedroomBlueZ]) { index, _ in index == 0 ? -55 : -85 }
        try await broker.waitForRetained(claims, timeout: .seconds(10)) { $0.json?["owner"] == "kitchen" }
        try await waitUntil("the kitchen connects the Nova", timeout: .seconds(15)) {
            try await Cluster.connected(kitchenBlueZ, Cluster.novaAddress)
        }
        steady.cancel()
        let fade = Self.advertise(Self.novaPath, [kitchenBlueZ, bedroomBlueZ]) { index, elapsed in
            let moved = min(elapsed / 30, 1) * 30
            return Int16((index == 0 ? -55 - moved : -85 + moved).rounded())
        }
        defer { fade.cancel() }
        let faded = ContinuousClock.now + .seconds(30)
        // While connected the flash sends no adverts: the move alone hands nothing over.
        try await Task.sleep(until: faded, clock: .continuous)
        #expect(try await broker.retainedJSON(claims)?["owner"] == "kitchen")
        // At the far end the kitchen loses the link and cannot make it again.
        try await kitchenBlueZ.mock("FailNextConnects", [.string(Self.novaPath), .uint32(1000), .string("le-connection-abort-by-local")])
        try await kitchenBlueZ.mock("LoseConnection", [.string(Self.novaPath)])

        let passed = try await client.waitForMessage(topic: claims, timeout: .seconds(15)) { $0.json?["owner"] == "bedroom" }
        client.publish("t2m/\(Cluster.nova)/set", #"{"state":"ON","brightness":123}"#)
        #expect(passed.json?["release"] == "kitchen", "the bedroom waits for the kitchen to let go: \(passed)")
        try await broker.waitForRetained("t2m/\(Cluster.nova)", timeout: .seconds(15)) {
            $0.json?["state"] == "ON" && $0.json?["brightness"] == 123
        }
        try await Task.sleep(for: .seconds(2))

        let owners = client.messages(on: claims).compactMap { $0.json?["owner"]?.stringValue }
        #expect(owners.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } } == ["kitchen", "bedroom"])
        #expect(Set(client.messages(on: claims).compactMap { $0.json?["term"]?.doubleValue }) == [1, 2])
        let kitchenSpans = try await kitchenBlueZ.connectionSpans(Cluster.novaAddress)
        let bedroomSpans = try await bedroomBlueZ.connectionSpans(Cluster.novaAddress)
        #expect(!kitchenSpans.isEmpty && !bedroomSpans.isEmpty)
        for one in kitchenSpans {
            for other in bedroomSpans { #expect(!one.overlaps(other), "kitchen \(one) and bedroom \(other) overlap") }
        }
        #expect(try await Cluster.connected(bedroomBlueZ, Cluster.novaAddress))
        #expect(try await Cluster.connected(kitchenBlueZ, Cluster.novaAddress) == false)
        // Run once: by the bedroom alone (the kitchen's flash never got a frame), and nothing failed.
        let kitchenWrites = try await NovaTests().writes(kitchenBlueZ)
        let bedroomWrites = try await NovaTests().writes(bedroomBlueZ)
        #expect(kitchenWrites.isEmpty, "\(kitchenWrites)")
        #expect(bedroomWrites.first?.contains(":L,") == true, "\(bedroomWrites)")
        let failures = client.messages(on: "t2m/bridge/+/event").compactMap(\.json).filter { $0["type"] == "command_failed" }
        #expect(failures.isEmpty, "\(failures)")
        await client.close()
        #expect(try await kitchen.terminate() == 0)
        #expect(try await bedroom.terminate() == 0)
    }

    @Test("a hand-over while the owner's Nova frame awaits a slow ack: the owner takes the ack, then disconnects; nothing fails")
    func handOverMidFrame() async throws {
        let broker = try await Broker.start()
        let (kitchen, kitchenBlueZ) = try await Cluster.bridge("kitchen", room: "kitchen", broker: broker)
        let (bedroom, bedroomBlueZ) = try await Cluster.bridge("bedroom", room: "bedroom", broker: broker)
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("t2m/bridge/+/event")
        let claims = "t2m/_cluster/claims/\(Cluster.nova)"
        // The kitchen hears the flash a little better: it claims it, and neither bridge leads by enough to hand over.
        let adverts = Self.advertise(Self.novaPath, [kitchenBlueZ, bedroomBlueZ]) { index, _ in index == 0 ? -55 : -60 }
        defer { adverts.cancel() }
        let claimed = try await broker.waitForRetained(claims, timeout: .seconds(10)) { $0.json?["owner"] == "kitchen" }
        client.publish("t2m/\(Cluster.nova)/set", #"{"state":"ON"}"#)
        try await broker.waitForRetained("t2m/\(Cluster.nova)", timeout: .seconds(15)) {
            $0.json?["state"] == "ON" && $0.json?["status"] == "ready"
        }

        // The flash now takes 1.5 s of its 2 s window to acknowledge; the OFF goes out, and while it waits for its
        // ack the claim passes to the bedroom: the message the kitchen itself sends on a sustained lead.
        try await kitchenBlueZ.mock("SetNovaAckDelay", [.string(Self.novaPath), .double(1.5)])
        let mark = client.mark
        client.publish("t2m/\(Cluster.nova)/set", "OFF")
        try await waitUntil("the OFF frame") { try await NovaTests().writes(kitchenBlueZ).last?.contains(":O)") == true }
        let written = try await kitchenBlueZ.mock("GetWriteTimes", [.string(NovaTests.request)]).first?.array?.last?.double ?? 0
        let epoch = try await broker.retainedJSON("t2m/_cluster/bridges/bedroom")?["epoch"] ?? .null
        var passed = claimed.json?.objectValue ?? [:]
        passed["owner"] = "bedroom"
        passed["term"] = .number((passed["term"]?.doubleValue ?? 1) + 1)
        passed["epoch"] = epoch
        passed["release"] = "kitchen"
        client.publish(claims, json: .object(passed), retain: true)
        // Meanwhile nothing new starts on the flash there: a GATT write sent to the kitchen is refused.
        try await client.subscribe("t2m/bridge/kitchen/response/ble/write")
        try await Task.sleep(for: .milliseconds(300))
        let write: JSONValue = ["device": .string(Cluster.nova), "characteristic": "fff3", "hex": "00", "transaction": "w1"]
        client.publish("t2m/bridge/kitchen/request/ble/write", json: write)
        let refused = try await client.waitForMessage(topic: "t2m/bridge/kitchen/response/ble/write", timeout: .seconds(5))
        #expect(refused.json?["status"] == "error", "\(refused)")
        #expect(refused.json?["error"]?.stringValue?.contains("another bridge") == true, "\(refused)")

        try await broker.waitForRetained(claims, timeout: .seconds(10)) { $0.json?["owner"] == "bedroom" && $0.json?["release"] == nil }
        try await waitUntil("the bedroom bridge connects the Nova", timeout: .seconds(15)) {
            try await Cluster.connected(bedroomBlueZ, Cluster.novaAddress)
        }
        // Past the frame's ack window, so a lost ack would have been reported by now.
        try await Task.sleep(for: .seconds(2.5))
        let acks = try await kitchenBlueZ.mock("GetNovaAckTimes", [.string(Self.novaPath)]).first?.array?.compactMap(\.double) ?? []
        let kitchenSpans = try await kitchenBlueZ.connectionSpans(Cluster.novaAddress)
        #expect(try await NovaTests().writes(kitchenBlueZ).last?.contains(":O)") == true, "nothing written after the OFF")
        let acked = acks.last { $0 >= written }
        #expect(acked != nil, "the OFF frame's ack never reached the kitchen: acks \(acks), written \(written)")
        let span = kitchenSpans.last { $0.contains(written) }
        #expect(span != nil, "no kitchen connection when the OFF was written: \(kitchenSpans)")
        if let acked, let span {
            #expect(acked < span.upperBound, "the kitchen disconnected at \(span.upperBound), before the ack at \(acked)")
            #expect(span.upperBound - acked < 1, "the kitchen held on \(span.upperBound - acked) s after the ack")
        }
        #expect(try await Cluster.connected(kitchenBlueZ, Cluster.novaAddress) == false)
        for one in kitchenSpans {
            for other in try await bedroomBlueZ.connectionSpans(Cluster.novaAddress) {
                #expect(!one.overlaps(other), "kitchen \(one) and bedroom \(other) overlap")
            }
        }
        let failures = client.messages(on: "t2m/bridge/+/event").filter { $0.index >= mark }.compactMap(\.json)
            .filter { $0["type"] == "command_failed" }
        #expect(failures.isEmpty, "\(failures)")
        await client.close()
        #expect(try await kitchen.terminate() == 0)
        #expect(try await bedroom.terminate() == 0)
    }

    @Test("three bridges at −60/−70/−80 dBm: the −60 one claims within 10 s and alone publishes the sensor")
    func threeBridges() async throws {
        let broker = try await Broker.start(logPublishes: true)
        // The −60 bridge has the lowest id, so a tie would not go its way.
        var bridges: [(BridgeProcess, BlueZStandIn)] = []
        for name in ["attic", "bedroom", "cellar"] {
            bridges.append(try await Cluster.bridge(name, room: name, broker: broker, sensor: false, nova: false))
        }
        // The sensor appears once all three run, as a device carried in.
        for (_, standIn) in bridges { try await standIn.mock("AddDevice", [.string("hci0"), .string(Cluster.address), .string("Sensor 1")]) }
        let heard = ContinuousClock.now
        let adverts = Self.advertise(Cluster.path, bridges.map(\.1)) { index, _ in [-60, -70, -80][index] }
        defer { adverts.cancel() }
        let claims = "t2m/_cluster/claims/\(Cluster.device)"
        let claim = try await broker.waitForRetained(claims, timeout: .seconds(10)) { $0.json != nil }
        #expect(claim.json?["owner"] == "attic" && claim.json?["term"] == 1)
        #expect(ContinuousClock.now - heard < .seconds(10))
        try await broker.waitForRetained("t2m/\(Cluster.device)") { $0.json?["rssi"] == -60 && $0.json?["room"] == "attic" }
        // 15 s at a renewal_interval of 2 s: as many renewals as 75 s at the default 10 s.
        try await Task.sleep(for: .seconds(15))
        for topic in ["t2m/\(Cluster.device)", "t2m/\(Cluster.device)/availability", claims] {
            #expect(broker.publishers(of: topic) == ["things2mqtt-attic"], "\(topic)")
        }
        let discovery = broker.log.split(separator: "\n").filter { $0.contains("Received PUBLISH") && $0.contains("/t2m_\(Cluster.device)/") }
        #expect(!discovery.isEmpty && discovery.allSatisfy { $0.contains("from things2mqtt-attic ") })
        #expect(try await broker.retainedJSON(claims)?["term"] == 1)
        for (bridge, _) in bridges { #expect(try await bridge.terminate() == 0) }
    }
}
