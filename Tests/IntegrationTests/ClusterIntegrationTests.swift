import BridgeCore
import DBus
import Foundation
import Testing
import TestSupport

@Suite("Two bridges, each with its own BlueZ, on one broker or two linked ones", .tags(.integration, .process), .timeLimit(.minutes(3)), .needs(.broker, .busMock))
struct ClusterIntegrationTests {
    static let address = "A4:C1:38:00:00:01"
    static let device = "ble_a4c138000001"
    static let path = BlueZStandIn.devicePath(address)
    static let novaAddress = "AA:BB:CC:DD:EE:01"
    static let nova = "ble_aabbccddee01"

    /// Whether a stand-in's BlueZ has the device connected.
    static func connected(_ standIn: BlueZStandIn, _ address: String) async throws -> Bool {
        try await ClusterConnectionIntegrationTests.connected(standIn, BlueZStandIn.devicePath(address))
    }

    /// A bridge's config; `ble` adds keys to the `ble` section, `cluster` to the `cluster` section.
    /// `defaultTimings`: the `cluster` section's own durations, not the short ones most tests use.
    static func config(
        _ port: Int, bridge: String, room: String, ble: String = "", cluster: String = "", defaultTimings: Bool = false
    ) -> String {
        let timings = defaultTimings ? "" : """
              renewal_interval: 2s
              claim_timeout: 6s
              observation_interval: 1s
              handover_window: 1s
            """
        return TestConfig.yaml(
            port: port,
            extra: """
                ble:
                  enabled: true
                  rssi_interval: 0s\(ble.isEmpty ? "" : "\n  " + ble)
                  connect:
                    - match: {name: "Sensor *"}
                      policy: never
                    - match: {class: nova}
                      policy: all
                cluster:
                  bridge_id: \(bridge)
                  room: \(room)
                \(timings)\(cluster.isEmpty ? "" : "\n  " + cluster)

                """)
    }

    /// A bridge with its own BlueZ stand-in that knows the sensor and a Nova.
    static func bridge(
        _ id: String, room: String, broker: Broker, ble: String = "", cluster: String = "", sensor: Bool = true,
        nova: Bool = true, defaultTimings: Bool = false
    ) async throws -> (BridgeProcess, BlueZStandIn) {
        let standIn = try await BlueZStandIn.start()
        if sensor { _ = try await standIn.mock("AddDevice", [.string("hci0"), .string(address), .string("Sensor 1")]) }
        if nova { _ = try await standIn.mock("AddNova", [.string("hci0"), .string(novaAddress)]) }
        let process = try BridgeProcess.start(
            config: config(broker.port, bridge: id, room: room, ble: ble, cluster: cluster, defaultTimings: defaultTimings),
            environment: standIn.environment)
        try await waitUntil("\(id) online", timeout: .seconds(15)) {
            guard process.isRunning else { throw TestFailure("bridge \(id) exited:\n\(process.stderr)") }
            return try await broker.retainedJSON("t2m/_cluster/bridges/\(id)")?["state"] == "online"
        }
        return (process, standIn)
    }

    /// Adverts at a steady signal on each stand-in, every 300 ms, until cancelled.
    static func advertise(_ signals: [(BlueZStandIn, Int16)]) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled {
                for (standIn, rssi) in signals { try? await standIn.advertise(path, rssi: rssi) }
                try? await Task.sleep(for: .milliseconds(300))
            }
        }
    }

    @Test("the stronger bridge owns the sensor and alone publishes it; its kill -9 hands the sensor to the other within 5 s")
    func ownership() async throws {
        let broker = try await Broker.start(logPublishes: true)
        let (kitchen, kitchenBlueZ) = try await Self.bridge("kitchen", room: "kitchen", broker: broker)
        let (bedroom, bedroomBlueZ) = try await Self.bridge("bedroom", room: "bedroom", broker: broker)
        let adverts = Self.advertise([(kitchenBlueZ, -60), (bedroomBlueZ, -75)])
        defer { adverts.cancel() }

        let claim = try await broker.waitForRetained("t2m/_cluster/claims/\(Self.device)", timeout: .seconds(10)) {
            $0.json?["owner"] == "kitchen"
        }
        #expect(claim.json?["term"] == 1)
        try await broker.waitForRetained("t2m/\(Self.device)") { $0.json?["rssi"] == -60 && $0.json?["room"] == "kitchen" }
        let roomEntity = try await broker.waitForRetained("homeassistant/sensor/t2m_\(Self.device)/room/config", timeout: .seconds(5))
        #expect(roomEntity.json?["unique_id"] != nil)
        try await Task.sleep(for: .seconds(3))
        // Every message about the sensor came from the kitchen bridge; both bridges know it.
        for topic in ["t2m/\(Self.device)", "t2m/\(Self.device)/availability"] {
            #expect(broker.publishers(of: topic) == ["things2mqtt-kitchen"], "\(topic)")
        }
        let discovery = broker.log.split(separator: "\n").filter { $0.contains("Received PUBLISH") && $0.contains("/t2m_\(Self.device)/") }
        #expect(!discovery.isEmpty && discovery.allSatisfy { $0.contains("from things2mqtt-kitchen ") })
        guard case .array(let bedroomDevices)? = try await broker.retainedJSON("t2m/bridge/bedroom/devices") else {
            Issue.record("no t2m/bridge/bedroom/devices")
            return
        }
        #expect(bedroomDevices.contains { $0["id"] == .string(Self.device) })
        // A request about the sensor on the shared topic is answered once, by its owner.
        let client = try await TestClient.connect(to: broker)
        let remembered = try await client.request("device/remember", #"{"device": "\#(Self.device)", "transaction": "r1"}"#)
        #expect(remembered["status"] == "ok", "\(remembered)")
        try await Task.sleep(for: .milliseconds(500))
        #expect(broker.publishers(of: "t2m/bridge/response/device/remember") == ["things2mqtt-kitchen"])
        #expect(client.messages(on: "t2m/bridge/response/device/remember").count == 1)
        await client.close()
        let info = try await broker.retainedJSON("t2m/bridge/bedroom/info")
        #expect(info?["cluster"]?["bridges"]?["kitchen"]?["room"] == "kitchen")

        try await kitchen.kill9()
        let killed = ContinuousClock.now
        try await broker.waitForRetained("t2m/_cluster/bridges/kitchen", timeout: .seconds(5)) { $0.json?["state"] == "offline" }
        let taken = try await broker.waitForRetained("t2m/_cluster/claims/\(Self.device)", timeout: .seconds(5)) {
            $0.json?["owner"] == "bedroom"
        }
        #expect(taken.json?["term"] == 2)
        #expect(ContinuousClock.now - killed < .seconds(5))
        // The dead bridge cannot say it is offline on its own state topic; the live one says it for it.
        try await broker.waitForRetained("t2m/bridge/kitchen/state", timeout: .seconds(5)) { $0.json?["state"] == "offline" }
        // The room is kept: the kitchen's bridge died, nothing says the sensor left the kitchen.
        try await broker.waitForRetained("t2m/\(Self.device)") { $0.json?["rssi"] == -75 && $0.json?["room"] == "kitchen" }
        #expect(broker.publishers(of: "t2m/\(Self.device)") == ["things2mqtt-kitchen", "things2mqtt-bedroom"])
        #expect(try await bedroom.terminate() == 0)
    }

    @Test("only the owner connects a Nova; /set reaches it once; SIGTERM hands it over within 2 s, with no availability gap, and the other bridge connects it")
    func connection() async throws {
        let broker = try await Broker.start(logPublishes: true)
        let (kitchen, kitchenBlueZ) = try await Self.bridge("kitchen", room: "kitchen", broker: broker)
        let (bedroom, bedroomBlueZ) = try await Self.bridge("bedroom", room: "bedroom", broker: broker)
        let novaPath = BlueZStandIn.devicePath(Self.novaAddress)
        let adverts = Task {
            while !Task.isCancelled {
                try? await kitchenBlueZ.advertise(novaPath, rssi: -55)
                try? await bedroomBlueZ.advertise(novaPath, rssi: -70)
                try? await Task.sleep(for: .milliseconds(300))
            }
        }
        defer { adverts.cancel() }
        try await broker.waitForRetained("t2m/_cluster/claims/\(Self.nova)", timeout: .seconds(10)) { $0.json?["owner"] == "kitchen" }
        try await broker.waitForRetained("t2m/\(Self.nova)", timeout: .seconds(15)) { $0.json?["status"] == "ready" }
        try await Task.sleep(for: .seconds(2))
        #expect(try await Self.connected(kitchenBlueZ, Self.novaAddress))
        #expect(try await Self.connected(bedroomBlueZ, Self.novaAddress) == false)

        let client = try await TestClient.connect(to: broker)
        client.publish("t2m/\(Self.nova)/set", #"{"state":"ON"}"#)
        try await broker.waitForRetained("t2m/\(Self.nova)") { $0.json?["state"] == "ON" && $0.json?["status"] == "ready" }
        #expect(try await Self.connected(bedroomBlueZ, Self.novaAddress) == false, "no write can have reached the bedroom's Nova")

        let availability = "t2m/\(Self.nova)/availability"
        try await client.subscribe(availability)
        let mark = client.mark
        let stopped = ContinuousClock.now
        #expect(try await kitchen.terminate() == 0)
        try await broker.waitForRetained("t2m/_cluster/claims/\(Self.nova)", timeout: .seconds(2)) { $0.json?["owner"] == "bedroom" }
        #expect(ContinuousClock.now - stopped < .seconds(3))
        // The kitchen dropped its connection before it passed the claim: one central at a time.
        #expect(try await Self.connected(kitchenBlueZ, Self.novaAddress) == false)
        try await waitUntil("the bedroom bridge connects the Nova", timeout: .seconds(15)) {
            try await Self.connected(bedroomBlueZ, Self.novaAddress)
        }
        // No availability gap: neither bridge said the flash went offline while it changed hands.
        let said = client.messages(on: availability).filter { $0.index >= mark }.compactMap { $0.json?["state"]?.stringValue }
        #expect(!said.contains("offline"), "\(said)")
        #expect(try await broker.retainedJSON(availability)?["state"] == "online")
        #expect(try await bedroom.terminate() == 0)
        await client.close()
    }

    @Test("two brokers linked by a bridge: cut, each side owns the sensor; healed, one owner and the same retained claim on both within a renewal period")
    func split() async throws {
        let kitchenBroker = try await Broker.start(persistence: true)
        let bedroomBroker = try await Broker.start(persistence: true)
        try await bedroomBroker.setBridge(to: kitchenBroker.port)
        let (kitchen, kitchenBlueZ) = try await Self.bridge("kitchen", room: "kitchen", broker: kitchenBroker)
        let (bedroom, bedroomBlueZ) = try await Self.bridge("bedroom", room: "bedroom", broker: bedroomBroker)
        let adverts = Self.advertise([(kitchenBlueZ, -58), (bedroomBlueZ, -72)])
        defer { adverts.cancel() }
        let topic = "t2m/_cluster/claims/\(Self.device)"
        for broker in [kitchenBroker, bedroomBroker] {
            try await broker.waitForRetained(topic, timeout: .seconds(15)) { $0.json?["owner"] == "kitchen" }
        }

        try await bedroomBroker.setBridge(to: nil)
        // Cut off, the bedroom's side hears no renewals: once the claim times out, the bedroom bridge claims.
        try await bedroomBroker.waitForRetained(topic, timeout: .seconds(20)) { $0.json?["owner"] == "bedroom" }
        #expect(try await kitchenBroker.retainedJSON(topic)?["owner"] == "kitchen")

        try await bedroomBroker.setBridge(to: kitchenBroker.port)
        let healed = ContinuousClock.now
        // Settled: the same owner and term on both brokers, unchanged for 3 s (more than a renewal period). The
        // first moment the two agree can be on the way there: one side's claim may reach the other before the two
        // bridges have settled who keeps the sensor. Owner and term only: the brokers are read one after the
        // other, and a renewal (with the owner's newest score) may reach one of them a moment before the other.
        var agreed: (owner: JSONValue, term: JSONValue?, since: ContinuousClock.Instant)?
        try await waitUntil("one owner and term on both brokers for 3 s", timeout: .seconds(30)) {
            let (one, two) = (try await kitchenBroker.retainedJSON(topic), try await bedroomBroker.retainedJSON(topic))
            guard let owner = one?["owner"], owner == two?["owner"], one?["term"] == two?["term"] else {
                agreed = nil
                return false
            }
            guard let held = agreed, held.owner == owner, held.term == one?["term"] else {
                agreed = (owner, one?["term"], ContinuousClock.now)
                return false
            }
            return ContinuousClock.now - held.since >= .seconds(3)
        }
        let since = try #require(agreed).since
        // Within one renewal period (2 s here), with 1 s for the broker link to come up.
        #expect(since - healed < .seconds(3), "settled \(since - healed) after the link came back")
        #expect(try await kitchen.terminate() == 0)
        #expect(try await bedroom.terminate() == 0)
    }

    @Test("a second bridge with a live bridge_id exits non-zero, naming it, and the live one stays online")
    func duplicateID() async throws {
        let broker = try await Broker.start()
        let (first, firstBlueZ) = try await Self.bridge("hall", room: "hall", broker: broker)
        let standIn = try await BlueZStandIn.start()
        let second = try BridgeProcess.start(config: Self.config(broker.port, bridge: "hall", room: "hall"), environment: standIn.environment)
        let status = try await second.child.waitForExit(timeout: .seconds(15))
        #expect(status != 0)
        #expect(second.stderr.contains("hall"))
        try await Task.sleep(for: .seconds(1))
        #expect(first.isRunning)
        #expect(try await broker.retainedJSON("t2m/_cluster/bridges/hall")?["state"] == "online")
        #expect(try await first.terminate() == 0)
        withExtendedLifetime(firstBlueZ) {}
    }
}
