import BridgeCore
import Testing
import TestSupport

/// What anyone who can publish on the broker could do to a cluster, against real bridges and a real broker.
@Suite("A cluster against messages it did not send", .tags(.integration, .process), .timeLimit(.minutes(3)), .needs(.broker, .busMock))
struct ClusterSecurityTests {
    typealias Cluster = ClusterIntegrationTests
    static let secret = "correct-horse-battery-staple-42"
    static let sensor = ClusterIntegrationTests.device

    /// Closes the forging client and expects the bridge to be still up and to stop cleanly.
    static func stop(_ bridge: BridgeProcess, _ blueZ: BlueZStandIn, _ client: TestClient) async throws {
        #expect(bridge.isRunning, "\(bridge.stderr)")
        await client.close()
        #expect(try await bridge.terminate() == 0)
        withExtendedLifetime(blueZ) {}
    }

    @Test("a retained presence with an epoch of 1e19, and other numbers beyond any integer, are dropped and logged: the bridge starts and stays up")
    func outOfRangeNumbers() async throws {
        let broker = try await Broker.start()
        let client = try await TestClient.connect(to: broker)
        client.publish("t2m/_cluster/bridges/x", #"{"state":"online","epoch":1e19}"#, retain: true)
        client.publish("t2m/_cluster/claims/\(Self.sensor)", #"{"owner":"x","term":1e19,"epoch":1}"#, retain: true)
        try await client.sync()
        let (hall, hallBlueZ) = try await Cluster.bridge("hall", room: "hall", broker: broker, sensor: false, nova: false)
        client.publish("t2m/_cluster/bridges/y", #"{"state":"online","epoch":5}"#)
        client.publish("t2m/_cluster/bridges/z", #"{"state":"online","epoch":5,"slots":-1e19}"#)
        client.publish("t2m/_cluster/renew/y", #"{"epoch":1e19,"devices":{}}"#)
        client.publish("t2m/_cluster/obs/y", #"{"\#(Self.sensor)":{"rssi":-60,"failures":1e19}}"#)
        try await client.sync()
        try await waitUntil("the dropped messages are counted", timeout: .seconds(10)) {
            hall.stderr.components(separatedBy: "Cluster message dropped").count - 1 >= 5
        }
        #expect(hall.isRunning)
        try await client.subscribe("t2m/bridge/hall/response/health_check")
        client.publish("t2m/bridge/hall/request/health_check", #"{"transaction":"up"}"#)
        let response = try await client.waitForMessage(topic: "t2m/bridge/hall/response/health_check", timeout: .seconds(10))
        #expect(response.json?["status"] == "ok")
        try await Self.stop(hall, hallBlueZ, client)
    }

    @Test("40 bridge ids and 200 malformed messages: 32 bridges tracked, one line about the bound, the drops logged a few at a time")
    func floods() async throws {
        let broker = try await Broker.start()
        let (hall, hallBlueZ) = try await Cluster.bridge("hall", room: "hall", broker: broker, sensor: false, nova: false)
        let client = try await TestClient.connect(to: broker)
        for index in 0..<40 { client.publish("t2m/_cluster/bridges/peer\(index)", #"{"state":"online","epoch":5}"#) }
        for index in 0..<200 { client.publish("t2m/_cluster/bridges/bad\(index % 3)", #"{"state":"online","epoch":1e19}"#) }
        try await client.sync()
        try await waitUntil("the bound is said", timeout: .seconds(10)) { hall.stderr.contains("tracks at most 32 bridges") }
        try await Task.sleep(for: .seconds(1))
        #expect(hall.stderr.components(separatedBy: "tracks at most 32 bridges").count == 2, "said once")
        let dropped = hall.stderr.components(separatedBy: "Cluster message dropped").count - 1
        #expect((1...20).contains(dropped), "\(dropped) lines for 200 drops")
        try await Self.stop(hall, hallBlueZ, client)
    }

    @Test("a forged presence under a bridge's own id, with no live run to answer its challenge, does not stop it")
    func forgedOwnPresence() async throws {
        let broker = try await Broker.start()
        let (hall, hallBlueZ) = try await Cluster.bridge("hall", room: "hall", broker: broker, sensor: false, nova: false)
        let client = try await TestClient.connect(to: broker)
        client.publish("t2m/_cluster/bridges/hall", #"{"state":"online","epoch":1}"#, retain: true)
        try await client.sync()
        try await Task.sleep(for: .seconds(3))
        try await Self.stop(hall, hallBlueZ, client)
    }

    @Test("with cluster.secret, a forged offline of another bridge and a forged claim change nothing; the secret is never shown")
    func forgeries() async throws {
        let broker = try await Broker.start(logPublishes: true)
        let secret = "secret: \(Self.secret)"
        let (kitchen, kitchenBlueZ) = try await Cluster.bridge("kitchen", room: "kitchen", broker: broker, cluster: secret, nova: false)
        let (bedroom, bedroomBlueZ) = try await Cluster.bridge("bedroom", room: "bedroom", broker: broker, cluster: secret, nova: false)
        let adverts = Cluster.advertise([(kitchenBlueZ, -60), (bedroomBlueZ, -75)])
        defer { adverts.cancel() }
        let claimTopic = "t2m/_cluster/claims/\(Self.sensor)"
        let claim = try await broker.waitForRetained(claimTopic, timeout: .seconds(10)) { $0.json?["owner"] == "kitchen" }
        #expect(claim.json?["auth"]?["mac"]?.stringValue?.count == 64)
        let client = try await TestClient.connect(to: broker)
        guard let bedroomEpoch = try await broker.retainedJSON("t2m/_cluster/bridges/bedroom")?["epoch"] else {
            Issue.record("no presence of bedroom")
            return
        }
        // Each would mark the kitchen dead (so the bedroom takes the sensor) or give the sensor away.
        client.publish("t2m/_cluster/bridges/kitchen", #"{"state":"offline"}"#, retain: true)
        client.publish(claimTopic, json: ["owner": "bedroom", "term": 99, "epoch": bedroomEpoch, "score": 0], retain: true)
        // A signed message copied onto another topic does not verify there.
        if let signed = try await broker.retained("t2m/_cluster/bridges/bedroom") {
            client.publish("t2m/_cluster/bridges/kitchen", bytes: signed.payload, retain: true)
        }
        try await client.sync()
        // Longer than claim_timeout (6 s): a kitchen taken for dead would have lost the sensor by now.
        try await Task.sleep(for: .seconds(8))
        #expect(kitchen.isRunning && bedroom.isRunning)
        #expect(broker.publishers(of: "t2m/\(Self.sensor)") == ["things2mqtt-kitchen"])
        #expect(try await broker.retainedJSON("t2m/bridge/kitchen/state")?["state"] == "online")
        // The kitchen says its presence every renewal, so the retained one is its own again.
        #expect(try await broker.retainedJSON("t2m/_cluster/bridges/kitchen")?["state"] == "online")
        #expect(bedroom.stderr.contains("Cluster message rejected"))
        let info = try await broker.retainedJSON("t2m/bridge/kitchen/info")
        #expect(info?["config"]?["cluster"]?["secret"] == "***")
        #expect(info?["cluster"]?["authenticated"] == true)
        for text in [kitchen.stderr, bedroom.stderr, broker.log, info?.jsonString ?? ""] { #expect(!text.contains(Self.secret)) }
        for (_, message) in try await broker.retainedMessages(under: "#") {
            #expect(!String(decoding: message.payload, as: UTF8.self).contains(Self.secret))
        }
        await client.close()
        #expect(try await kitchen.terminate() == 0)
        #expect(try await bedroom.terminate() == 0)
    }

    @Test("with cluster.secret, a forged presence under a bridge's own id, even with a forged answer to a challenge, stops nothing")
    func securedOwnPresence() async throws {
        let broker = try await Broker.start()
        let (hall, hallBlueZ) = try await Cluster.bridge("hall", room: "hall", broker: broker, cluster: "secret: \(Self.secret)", sensor: false, nova: false)
        let client = try await TestClient.connect(to: broker)
        // An epoch older than the live run's would stop it; the challenge is authenticated too, so not even an
        // unsigned answer to it is taken.
        client.publish("t2m/_cluster/bridges/hall", #"{"state":"online","epoch":1}"#, retain: true)
        try await client.subscribe("t2m/_cluster/bridges/hall/challenge")
        if let challenge = try? await client.waitForMessage(topic: "t2m/_cluster/bridges/hall/challenge", timeout: .seconds(2)),
            let nonce = challenge.json?["nonce"]
        {
            client.publish("t2m/_cluster/bridges/hall/answer", json: ["epoch": 1, "nonce": nonce])
        }
        try await client.sync()
        try await Task.sleep(for: .seconds(3))
        #expect(hall.isRunning, "\(hall.stderr)")
        #expect(hall.stderr.contains("Cluster message rejected"))
        await client.close()
        #expect(try await hall.terminate() == 0)
        withExtendedLifetime(hallBlueZ) {}
    }

    @Test("with cluster.secret, kill -9 of the owner still hands its sensor over (its will is signed), and a clean stop says offline")
    func securedFailover() async throws {
        let broker = try await Broker.start()
        let secret = "secret: \(Self.secret)"
        let (kitchen, kitchenBlueZ) = try await Cluster.bridge("kitchen", room: "kitchen", broker: broker, cluster: secret, nova: false)
        let (bedroom, bedroomBlueZ) = try await Cluster.bridge("bedroom", room: "bedroom", broker: broker, cluster: secret, nova: false)
        let adverts = Cluster.advertise([(kitchenBlueZ, -60), (bedroomBlueZ, -75)])
        defer { adverts.cancel() }
        let claimTopic = "t2m/_cluster/claims/\(Self.sensor)"
        _ = try await broker.waitForRetained(claimTopic, timeout: .seconds(10)) { $0.json?["owner"] == "kitchen" }
        try await kitchen.kill9()
        let killed = ContinuousClock.now
        let will = try await broker.waitForRetained("t2m/_cluster/bridges/kitchen", timeout: .seconds(10)) { $0.json?["state"] == "offline" }
        #expect(will.json?["auth"]?["mac"] != nil)
        _ = try await broker.waitForRetained(claimTopic, timeout: .seconds(15)) { $0.json?["owner"] == "bedroom" }
        // Within claim_timeout (6 s) of the last presence, whichever of the will and the silence came first.
        #expect(ContinuousClock.now - killed < .seconds(10))
        try await broker.waitForRetained("t2m/bridge/kitchen/state", timeout: .seconds(5)) { $0.json?["state"] == "offline" }
        #expect(try await bedroom.terminate() == 0)
        try await broker.waitForRetained("t2m/_cluster/bridges/bedroom", timeout: .seconds(5)) { $0.json?["state"] == "offline" }
    }

    @Test("with cluster.secret, a second bridge with a live bridge_id and the same secret still exits, naming it")
    func securedDuplicate() async throws {
        let broker = try await Broker.start()
        let secret = "secret: \(Self.secret)"
        let (first, firstBlueZ) = try await Cluster.bridge("hall", room: "hall", broker: broker, cluster: secret, sensor: false, nova: false)
        let standIn = try await BlueZStandIn.start()
        let second = try BridgeProcess.start(
            config: Cluster.config(broker.port, bridge: "hall", room: "hall", cluster: secret), environment: standIn.environment)
        let status = try await second.child.waitForExit(timeout: .seconds(15))
        #expect(status != 0)
        #expect(second.stderr.contains("hall"))
        #expect(first.isRunning)
        #expect(try await first.terminate() == 0)
        withExtendedLifetime(firstBlueZ) {}
    }
}
