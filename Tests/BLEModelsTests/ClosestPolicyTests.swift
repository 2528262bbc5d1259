import BLEModels
import BridgeCore
import Support
import Testing

@Suite("Closest and its hysteresis")
struct ClosestPolicyTests {
    static let (a, b, c) = (ConnectPolicyTests.a, ConnectPolicyTests.b, ConnectPolicyTests.c)

    static func nova(_ address: String, _ signal: Double?) -> KnownDevice { ConnectPolicyTests.nova(address, signal) }

    static func rules(max: Int = 1) -> ConnectRules { ConnectPolicyTests.rules(.closest, max: max) }

    /// A scenario: at each time, the signals of flashes A and B, and which one holds the connection after it.
    static let crossings: [(String, [(Double, Double, Double, String)])] = [
        ("similar signals that cross never flap", [
            (0, 0.60, 0.55, "A"), (1, 0.60, 0.70, "A"), (5, 0.55, 0.74, "A"), (12, 0.58, 0.77, "A"),
            (20, 0.70, 0.60, "A"), (25, 0.50, 0.69, "A"), (60, 0.40, 0.59, "A"), (120, 0.42, 0.61, "A"),
        ]),
        ("clearly stronger for the whole hold: the connection moves once", [
            (0, 0.60, 0.50, "A"), (1, 0.50, 0.75, "A"), (6, 0.50, 0.80, "A"), (10.5, 0.50, 0.80, "A"),
            (11, 0.50, 0.80, "B"), (12, 0.60, 0.70, "B"), (30, 0.65, 0.50, "B"), (60, 0.70, 0.55, "B"),
        ]),
        ("a dip below the margin restarts the clock", [
            (0, 0.60, 0.50, "A"), (1, 0.50, 0.80, "A"), (6, 0.50, 0.65, "A"), (7, 0.50, 0.80, "A"),
            (11, 0.50, 0.80, "A"), (16, 0.50, 0.80, "A"), (17, 0.50, 0.80, "B"),
        ]),
        ("a move back needs the same margin and hold", [
            (0, 0.50, 0.90, "B"), (1, 0.85, 0.60, "B"), (10, 0.85, 0.60, "B"), (11, 0.85, 0.60, "A"),
            (12, 0.70, 0.80, "A"), (30, 0.70, 0.80, "A"),
        ]),
        ("when the holder goes, the other connects at once", [
            (0, 0.80, 0.50, "A"), (1, -1, 0.50, "B"), (2, 0.90, 0.50, "B"),
        ]),
    ]

    @Test("closest with two flashes whose signals cross", arguments: crossings)
    func crossing(name: String, steps: [(Double, Double, Double, String)]) {
        let devices = [Self.nova(Self.a, nil), Self.nova(Self.b, nil)]
        var radio = Radio(policy: ConnectPolicy(rules: Self.rules()), devices: devices)
        for (time, signalA, signalB, holder) in steps {
            radio.set(Self.a, signal: signalA)
            radio.set(Self.b, signal: signalB)
            radio.step(now: time)
            let expected = holder == "A" ? Self.a : Self.b
            #expect(radio.connected == [expected], "\(name), at \(time) s")
        }
    }

    @Test("a pending move names the time to look again, and happens then without any other change")
    func review() {
        let devices = [Self.nova(Self.a, 0.5), Self.nova(Self.b, 0.4)]
        var radio = Radio(policy: ConnectPolicy(rules: Self.rules()), devices: devices)
        radio.step(now: 0)
        #expect(radio.policy.nextReview == nil)
        radio.set(Self.b, signal: 0.8)
        radio.step(now: 3)
        #expect(radio.policy.nextReview == 13)
        radio.step(now: 13)
        #expect(radio.connected == [Self.b])
        #expect(radio.policy.nextReview == nil)
    }

    @Test("with max_devices 2 a clearly stronger third replaces only the weakest")
    func replacesWeakest() {
        var radio = Radio(
            policy: ConnectPolicy(rules: Self.rules(max: 2)),
            devices: [Self.nova(Self.a, 0.9), Self.nova(Self.b, 0.5), Self.nova(Self.c, 0.3)])
        radio.step(now: 0)
        #expect(radio.connected == [Self.a, Self.b])
        radio.set(Self.c, signal: 0.8)
        radio.step(now: 1)
        radio.step(now: 11)
        #expect(radio.connected == [Self.a, Self.c])
    }

    @Test(
        "what a bridge would connect if it owned every device: each closest rule's strongest eligible, held down or not",
        arguments: [
            (1, [0.5, 0.8, 0.3], [ClosestPolicyTests.b]),
            (2, [0.5, 0.8, 0.3], [ClosestPolicyTests.a, ClosestPolicyTests.b]),
            (1, [0.5, 0.05, 0.3], [ClosestPolicyTests.a]),
            (1, [-1, -1, 0.3], [ClosestPolicyTests.c]),
            (3, [0.9, -1, 0.05], [ClosestPolicyTests.a]),
        ])
    func picks(max: Int, signals: [Double], expected: [String]) {
        let devices = zip([Self.a, Self.b, Self.c], signals).map { address, signal in
            // A negative signal: out of range. Every device held down, as a bridge holds those it does not own.
            var device = Self.nova(address, signal < 0 ? nil : signal)
            if signal < 0 { device.status = .unavailable }
            device.manual = .disconnected
            return device
        }
        let picks = ConnectPolicy(rules: Self.rules(max: max)).closestPicks(devices)
        #expect(picks == Set(expected.map { try! BluetoothAddress($0) }))
        #expect(ConnectPolicy(rules: ConnectPolicyTests.rules(.all)).closestPicks(devices).isEmpty, "not a closest rule")
    }
}

/// Devices whose status follows the decisions at once, as if every connect and disconnect succeeded.
struct Radio {
    var policy: ConnectPolicy
    var devices: [KnownDevice]

    /// Sets a device's signal; a negative value takes it out of range.
    mutating func set(_ address: String, signal: Double) {
        guard let index = devices.firstIndex(where: { $0.address.description == address }) else { return }
        devices[index].signal = signal < 0 ? nil : signal
        if signal < 0 { devices[index].status = .unavailable }
        if signal >= 0, devices[index].status == .unavailable { devices[index].status = .available }
    }

    mutating func step(now: Double) {
        let decision = policy.evaluate(devices, now: now)
        for index in devices.indices {
            if decision.connect.contains(devices[index].address) { devices[index].status = .ready }
            if decision.disconnect.contains(devices[index].address) { devices[index].status = .available }
        }
    }

    var connected: Set<String> { Set(devices.filter(\.holdsConnection).map(\.address.description)) }
}
