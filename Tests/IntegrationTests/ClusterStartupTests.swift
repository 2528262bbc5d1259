import BridgeCore
import Testing
import TestSupport

extension ClusterIntegrationTests {
    @Test("on a broker holding 3,000 other bridges' retained discovery configs, a bridge still joins its cluster and answers")
    func crowdedBroker() async throws {
        let broker = try await Broker.start()
        let seeder = try await TestClient.connect(to: broker)
        let payload = #"{"name":"x","state_topic":"other/dev","availability":[{"topic":"other/bridge/state"}],"pad":""#
            + String(repeating: "p", count: 400) + #""}"#
        // More than the broker's queue for one client (1,000 messages by default): the replay when the bridge
        // subscribes to the discovery prefix must not push out what follows it.
        for index in 0..<3000 { seeder.publish("homeassistant/sensor/other_\(index)/rssi/config", payload, retain: true) }
        try await waitUntil("the configs are retained", timeout: .seconds(30)) {
            try await broker.retainedMessages(under: "homeassistant/sensor/#").count >= 3000
        }
        await seeder.close()
        // `bridge` waits for the presence, which goes out once the bridge's probe came back.
        // The stand-in is kept to the end: dropped here, its bus would go with it and the bridge lose its adapter.
        let (kitchen, kitchenBlueZ) = try await Self.bridge("kitchen", room: "kitchen", broker: broker, sensor: false, nova: false)
        // Its presence names its adapter, the stand-in's hci0.
        try await broker.waitForRetained("t2m/_cluster/bridges/kitchen", timeout: .seconds(5)) { $0.json?["adapters"] == ["hci0"] }
        let client = try await TestClient.connect(to: broker)
        try await client.subscribe("t2m/bridge/kitchen/response/health_check")
        client.publish("t2m/bridge/kitchen/request/health_check", #"{"transaction":"crowded"}"#)
        let response = try await client.waitForMessage(topic: "t2m/bridge/kitchen/response/health_check", timeout: .seconds(10))
        #expect(response.json?["status"] == "ok")
        #expect(response.json?["transaction"] == "crowded")
        await client.close()
        #expect(try await kitchen.terminate() == 0)
        withExtendedLifetime(kitchenBlueZ) {}
    }
}
