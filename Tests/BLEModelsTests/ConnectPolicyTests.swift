import BLEModels
import BridgeCore
import Testing

@Suite("Connect policies")
struct ConnectPolicyTests {
    static let a = "AA:00:00:00:00:0A", b = "AA:00:00:00:00:0B", c = "AA:00:00:00:00:0C", x = "11:22:33:44:55:66"

    static func nova(_ address: String, _ signal: Double?, _ status: DeviceStatus = .available) -> KnownDevice {
        device(address, name: "Nova", services: ["fff0"], signal: signal, status: status)
    }

    static func rules(_ policy: ConnectRule.Policy, max: Int = 1) -> ConnectRules {
        let rule = ConnectRule(match: .init(deviceClass: "nova"), policy: policy, maxDevices: max)
        return ConnectRules(rules: [rule], deny: [x])
    }

    static func held(_ device: KnownDevice, _ manual: KnownDevice.Manual, remembered: Bool = false) -> KnownDevice {
        var device = device
        device.manual = manual
        device.remembered = remembered
        return device
    }

    /// Rules, devices, then the addresses to connect and to disconnect.
    static let decisions: [(String, ConnectRules, [KnownDevice], [String], [String])] = [
        ("closest: the strongest", rules(.closest), [nova(a, 0.5), nova(b, 0.9), nova(c, 0.7)], [b], []),
        ("closest: up to max_devices", rules(.closest, max: 2), [nova(a, 0.5), nova(b, 0.9), nova(c, 0.7)], [b, c], []),
        ("closest: equal signals pick by address", rules(.closest), [nova(b, 0.5), nova(a, 0.5)], [a], []),
        ("closest: a connected one keeps its place", rules(.closest), [nova(a, 0.5, .ready), nova(b, 0.6)], [], []),
        ("closest: connecting holds a place", rules(.closest), [nova(a, 0.5, .connecting), nova(b, 0.6)], [], []),
        (
            "closest: too many connected after max_devices went down", rules(.closest, max: 1),
            [nova(a, 0.5, .ready), nova(b, 0.9, .busy), nova(c, 0.7, .ready)], [], [a, c]
        ),
        ("min signal: too weak is not connected", rules(.closest), [nova(a, 0.05), nova(b, 0.2)], [b], []),
        ("min signal: exactly the minimum is enough", rules(.all), [nova(a, 0.1)], [a], []),
        ("min signal: a fading one is dropped", rules(.closest), [nova(a, 0.09, .ready), nova(b, 0.5)], [b], [a]),
        ("deny: never connected", rules(.closest), [nova(x, 1.0), nova(b, 0.3)], [b], []),
        ("deny: disconnected if connected", rules(.all), [nova(x, 1.0, .ready)], [], [x]),
        (
            "manual disconnect holds down", rules(.closest),
            [held(nova(a, 1.0), .disconnected), held(nova(c, 0.9, .ready), .disconnected), nova(b, 0.3)], [b], [c]
        ),
        (
            "manual connect is left alone and takes no place", rules(.closest),
            [held(nova(a, 1.0, .ready), .connected), nova(b, 0.3)], [b], []
        ),
        ("manual connect survives never", rules(.never), [held(nova(a, 1.0, .ready), .connected)], [], []),
        ("manual connect is connected again when it dropped", rules(.never), [held(nova(a, 1.0), .connected)], [a], []),
        ("manual connect waits while out of range", rules(.all), [held(nova(a, 1.0, .unavailable), .connected)], [], []),
        ("all: every eligible one", rules(.all), [nova(a, 0.2), nova(b, 0.9), nova(c, 0.3, .ready)], [a, b], []),
        ("all: not the unavailable", rules(.all), [nova(a, 0.9, .unavailable), nova(b, nil)], [], []),
        (
            "remembered: only remembered ones", rules(.remembered),
            [held(nova(a, 0.2), .none, remembered: true), nova(b, 0.9), nova(c, 0.9, .ready)], [a], [c]
        ),
        ("never: nothing, and connected ones go", rules(.never), [nova(a, 0.9), nova(b, 0.9, .ready)], [], [b]),
        (
            "unclaimed: connected ones go, others stay", rules(.all),
            [device(c, name: "Phone", signal: 0.9, status: .ready), device(b, name: "Watch", signal: 0.9)], [], [c]
        ),
        ("unknown signal: a connection is kept", rules(.closest), [nova(a, nil, .ready), nova(b, 0.5)], [], []),
    ]

    @Test("what each policy connects and disconnects", arguments: decisions)
    func decide(name: String, rules: ConnectRules, devices: [KnownDevice], connect: [String], disconnect: [String]) {
        var policy = ConnectPolicy(rules: rules)
        let decision = policy.evaluate(devices, now: 0)
        #expect(decision.connect.map(\.description) == connect, "\(name)")
        #expect(decision.disconnect.map(\.description) == disconnect, "\(name)")
    }
}
