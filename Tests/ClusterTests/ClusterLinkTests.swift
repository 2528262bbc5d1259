import BridgeCore
import Cluster
import Testing

/// A connected peripheral stops advertising: the bridge holding its link hears no adverts and the others hear
/// none either. These scenarios run with the default timings.
@Suite("Connected devices: the link is the owner's observation; after a drop that cannot be mended, one quick hand-over")
struct ClusterLinkTests {
    static let device = DeviceID("ble_aabbccddee01")!

    /// Two bridges, `a` at −55 dBm and `b` at −85 dBm; `a` claims and connects the device.
    static func connectedOnA() -> ClusterNetwork {
        var network = ClusterNetwork()
        network.add("a", epoch: 1)
        network.add("b", epoch: 2)
        network.connectable = [device]
        network.run(6_000, hearing: ["a": [device: -55], "b": [device: -85]])
        network.link("a", device, up: true)
        return network
    }

    /// The terms of the claims published for the device, in order, without repeats.
    static func terms(_ network: ClusterNetwork) -> [Int] {
        network.log.compactMap { entry -> Int? in
            guard case .publish(let topic, let payload?, _) = entry.action, topic == ClusterNetwork.topics.claim(device) else {
                return nil
            }
            return Claim(payload)?.term
        }.reduce(into: []) { if $0.last != $1 { $0.append($1) } }
    }

    struct Row: Sendable, CustomStringConvertible {
        /// What `b` hears while `a` holds the link (nil: nothing, as with a real peripheral).
        var challenger: Int?
        var linked: Bool
        var owner: String
        var description: String { "b hears \(challenger.map(String.init) ?? "nothing"), a linked \(linked): \(owner)" }
    }

    @Test(
        "for 90 s a hears no advert: holding the link it keeps the device whatever b hears; without the link b's lead takes it",
        arguments: [
            Row(challenger: nil, linked: true, owner: "a"),
            Row(challenger: -40, linked: true, owner: "a"),
            Row(challenger: -40, linked: false, owner: "b"),
        ])
    func linkHolds(_ row: Row) {
        var network = Self.connectedOnA()
        #expect(network.owners(of: Self.device) == ["a"])
        if !row.linked { network.link("a", Self.device, up: false) }
        network.run(90_000, hearing: row.challenger.map { ["b": [Self.device: $0]] } ?? [:])
        #expect(network.owners(of: Self.device) == [row.owner])
        #expect(network.mayConnect(Self.device) == [row.owner])
        if row.linked {
            // Renewed all along: b never saw the claim lapse, nor did a claim come again.
            #expect(Self.terms(network) == [1])
            #expect(!network.log.contains { $0.bridge == "a" && $0.action == .lost(Self.device) })
            #expect(!network.log.contains { $0.action == .room(Self.device, "not_home") })
        }
    }

    @Test("the link drops and a's reconnect fails: b, hearing the adverts again, may connect within 4 s (its first shared signal, no lead windows); one hand-over, never two that may connect")
    func dropThenFail() {
        var network = Self.connectedOnA()
        network.run(30_000)
        #expect(network.owners(of: Self.device) == ["a"])
        network.link("a", Self.device, up: false)
        network.connectFailed("a", Self.device, times: 1)
        let dropped = network.ms
        var movedAt: Int?
        while network.ms - dropped < 40_000 {
            network.run(250, hearing: ["b": [Self.device: -60]])
            #expect(network.mayConnect(Self.device).count <= 1)
            if movedAt == nil, network.mayConnect(Self.device) == ["b"] { movedAt = network.ms }
        }
        #expect(network.owners(of: Self.device) == ["b"])
        #expect(network.mayConnect(Self.device) == ["b"])
        #expect(movedAt.map { $0 - dropped <= 4_000 } == true, "b may connect \(movedAt.map { $0 - dropped } ?? -1) ms after the drop")
        #expect(Self.terms(network) == [1, 2])
    }

    @Test("the link drops and a reconnects: nothing moves though b hears the adverts in between")
    func dropThenReconnect() {
        var network = Self.connectedOnA()
        network.link("a", Self.device, up: false)
        network.run(1_000, hearing: ["b": [Self.device: -60]])
        network.link("a", Self.device, up: true)
        network.run(30_000)
        #expect(network.owners(of: Self.device) == ["a"])
        #expect(Self.terms(network) == [1])
    }

    @Test("the link drops, a's reconnect fails and nobody hears the device: a keeps it and tries again")
    func dropHeardByNobody() {
        var network = Self.connectedOnA()
        network.link("a", Self.device, up: false)
        network.connectFailed("a", Self.device, times: 1)
        network.run(5_000)
        #expect(network.owners(of: Self.device) == ["a"])
        #expect(Self.terms(network) == [1])
    }
}
