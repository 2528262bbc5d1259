import BridgeCore
import Cluster
import Testing

extension ClusterNetwork {
    /// The bridge published the device's state, whose settable part is `settable`.
    mutating func published(_ id: String, _ device: DeviceID, _ settable: [String: JSONValue]) {
        bridges[id]?.published(device, settable: settable)
    }

    /// The claims of the device as they were published, in order.
    func claims(of device: DeviceID) -> [Claim] {
        log.compactMap { entry in
            guard case .publish(let topic, let payload?, _) = entry.action, topic == Self.topics.claim(device) else { return nil }
            return Claim(payload)
        }
    }

    /// The states each bridge was handed with a device it gained.
    func carried(_ device: DeviceID) -> [(bridge: String, state: JSONValue)] {
        log.compactMap { entry in
            guard case .carried(let id, let state) = entry.action, id == device else { return nil }
            return (entry.bridge, state)
        }
    }
}

@Suite("A passed claim carries the device's settable state")
struct CarriedStateTests {
    static let device = DeviceID("ble_aabbccddee01")!
    static let lit: [String: JSONValue] = ["state": "ON", "brightness": 123, "color_temp": 4000]

    @Test("a hand-over carries the state the owner last published; the new owner is handed it once, after gaining")
    func handOver() {
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        network.add("b", epoch: 2)
        network.published("a", Self.device, Self.lit)
        network.run(5_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -80]])
        #expect(network.owners(of: Self.device) == ["a"])
        #expect(network.claims(of: Self.device).allSatisfy { $0.state == nil }, "a fresh claim carries nothing")
        network.published("b", Self.device, ["state": "OFF"])
        network.published("a", Self.device, Self.lit)
        network.run(20_000, hearing: ["a": [Self.device: -85], "b": [Self.device: -55]])
        #expect(network.owners(of: Self.device) == ["b"])
        let passed = network.claims(of: Self.device).filter { $0.owner == "b" }
        #expect(passed.first?.state == .object(Self.lit) && passed.first?.release == "a")
        #expect(passed.dropFirst().allSatisfy { $0.state == nil }, "the old owner's release does not repeat it")
        #expect(network.claims(of: Self.device).filter { $0.owner == "a" }.allSatisfy { $0.state == nil })
        #expect(network.carried(Self.device).map(\.bridge) == ["b"])
        #expect(network.carried(Self.device).first?.state == .object(Self.lit))
        let gained = network.log.firstIndex { $0.bridge == "b" && $0.action == .gained(Self.device) }
        let carried = network.log.firstIndex { $0.bridge == "b" && $0.action == .carried(Self.device, .object(Self.lit)) }
        #expect(gained != nil && carried != nil && gained! < carried!)
        // A replay of the same claim (a reconnect) hands nothing over again.
        let topic = ClusterNetwork.topics.claim(Self.device)
        network.publish(topic, passed.first?.json, retain: true)
        #expect(network.carried(Self.device).count == 1)
    }

    @Test("a clean stop passes each device with its state; a device never published passes with none")
    func leaving() {
        let other = DeviceID("ble_aabbccddee02")!
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        network.add("b", epoch: 2)
        network.run(5_000, hearing: ["a": [Self.device: -60, other: -60], "b": [Self.device: -80, other: -80]])
        network.published("a", Self.device, Self.lit)
        var leaving = network.bridges["a"]!
        let actions = leaving.leaving(now: network.now)
        network.bridges["a"] = leaving
        network.apply("a", actions)
        #expect(network.owners(of: Self.device) == ["b"])
        #expect(network.claims(of: Self.device).last?.state == .object(Self.lit))
        #expect(network.claims(of: other).last?.owner == "b" && network.claims(of: other).last?.state == nil)
        #expect(network.carried(Self.device).map(\.bridge) == ["b"])
        #expect(network.carried(other).isEmpty)
    }

    @Test("a malformed state in a claim is ignored: the claim holds, nothing is carried")
    func malformed() {
        let big = JSONValue.object(Dictionary(uniqueKeysWithValues: (0..<40).map { ("k\($0)", JSONValue.number(Double($0))) }))
        let long = JSONValue.object(["label": .string(String(repeating: "x", count: 4000))])
        for state: JSONValue in ["ON", 5, ["ON"], .null, [:], big, long] {
            var fields = Claim(owner: "b", term: 2, epoch: 2, score: -55).json.objectValue!
            fields["state"] = state
            let claim = Claim(.object(fields))
            #expect(claim?.owner == "b" && claim?.state == nil, "\(state)")
        }
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        network.add("b", epoch: 2)
        network.run(5_000, hearing: ["a": [Self.device: -60], "b": [Self.device: -80]])
        var fields = Claim(owner: "b", term: 2, epoch: 2, score: -55).json.objectValue!
        fields["state"] = ["ON", 123]
        network.publish(ClusterNetwork.topics.claim(Self.device), .object(fields), retain: true)
        #expect(network.owners(of: Self.device) == ["b"])
        #expect(network.carried(Self.device).isEmpty)
    }
}
