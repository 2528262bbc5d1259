import BLEModels
import BridgeCore
import Testing
import Support

@Suite("Connect rules")
struct ConnectRuleTests {
    static let nova = device("AA:00:00:00:00:01", name: "Nova", services: ["fff0"])
    static let novaNoService = device("AA:00:00:00:00:02", name: "Nova")
    static let heart = device("AA:00:00:00:00:03", name: "Polar H10 1234", services: ["0x180D", "180f"])
    static let novaRenamed = device("AA:00:00:00:00:05", name: "Nova 2", services: ["fff0"])
    static let anonymous = device("AA:00:00:00:00:04", services: ["6e400001-b5a3-f393-e0a9-e50e24dcca9e"])

    @Test(
        "a match holds when every key given holds",
        arguments: [
            (ConnectRule.Match(service: "fff0", name: "Nova"), nova, true),
            (ConnectRule.Match(service: "FFF0"), nova, true),
            (ConnectRule.Match(service: "0000fff0-0000-1000-8000-00805f9b34fb"), nova, true),
            (ConnectRule.Match(service: "fff0", name: "Nova"), novaNoService, false),
            (ConnectRule.Match(name: "Nova"), novaNoService, true),
            (ConnectRule.Match(name: "nova"), nova, false),
            (ConnectRule.Match(name: "Polar*"), heart, true),
            (ConnectRule.Match(name: "Polar H?? *"), heart, true),
            (ConnectRule.Match(name: "*"), anonymous, false),
            (ConnectRule.Match(service: "180d"), heart, true),
            (ConnectRule.Match(service: "180D", name: "Nova"), heart, false),
            (ConnectRule.Match(address: "aa:00:00:00:00:03"), heart, true),
            (ConnectRule.Match(address: "AA-00-00-00-00-03"), nova, false),
            (ConnectRule.Match(deviceClass: "nova"), nova, true),
            (ConnectRule.Match(deviceClass: "Nova"), nova, true),
            (ConnectRule.Match(deviceClass: "nova"), novaNoService, false),
            (ConnectRule.Match(deviceClass: "nova"), novaRenamed, false),
            (ConnectRule.Match(service: "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"), anonymous, true),
            (ConnectRule.Match(service: "fff"), nova, false),
            (ConnectRule.Match(), nova, false),
        ])
    func matching(match: ConnectRule.Match, device: KnownDevice, expected: Bool) {
        #expect(ConnectRule(match: match, policy: .all).matches(device) == expected)
    }

    @Test(
        "problems name the key and quote the value",
        arguments: [
            (ConnectRule(match: .init(service: "fff"), policy: .closest), ["service: UUID \"fff\""]),
            (ConnectRule(match: .init(service: "0000fff0-0000-1000-8000-00805f9b34"), policy: .all), ["service: UUID"]),
            (ConnectRule(match: .init(name: "Nova["), policy: .all), ["name: unclosed [ in pattern \"Nova[\""]),
            (ConnectRule(match: .init(address: "11:22:33:44"), policy: .all), ["address: address \"11:22:33:44\""]),
            (ConnectRule(match: .init(deviceClass: "lamp"), policy: .all), ["class: unknown class \"lamp\" (known"]),
            (ConnectRule(match: .init(), policy: .never), ["match needs at least one of"]),
            (ConnectRule(match: .init(name: "x"), policy: .closest, maxDevices: 0), ["max_devices must be at least 1"]),
            (ConnectRule(match: .init(name: "x"), policy: .closest, minSignal: 1.5), ["min_signal must be between"]),
            (ConnectRule(match: .init(name: "x"), policy: .closest, minSignal: .nan), ["min_signal"]),
            (
                ConnectRule(match: .init(service: "xyz", address: "nope"), policy: .all, maxDevices: -1),
                ["service:", "address:", "max_devices"]
            ),
            (ConnectRule(match: .init(service: "180d", name: "H*", address: "11:22:33:44:55:66"), policy: .all), []),
        ])
    func problems(rule: ConnectRule, expected: [String]) {
        let problems = rule.problems
        #expect(problems.count == expected.count, "\(problems)")
        for (problem, fragment) in zip(problems, expected) {
            #expect(problem.contains(fragment), "\(problem) should contain \(fragment)")
        }
    }

    @Test(
        "the rule set: first match wins, problems say where, the deny list parses",
        arguments: [
            (nova, 0 as Int?), (novaNoService, 1), (heart, 2), (anonymous, nil),
        ])
    func firstMatch(device: KnownDevice, index: Int?) {
        let rules = ConnectRules(
            rules: [
                ConnectRule(match: .init(deviceClass: "nova"), policy: .closest),
                ConnectRule(match: .init(name: "Nova*"), policy: .never),
                ConnectRule(match: .init(service: "180d"), policy: .all),
                ConnectRule(match: .init(name: "*"), policy: .all),
            ],
            deny: ["11:22:33:44:55:66", "bogus"])
        #expect(rules.rule(for: device)?.index == index)
        #expect(rules.problems == ["deny[1]: address \"bogus\" is not six octets like AA:BB:CC:DD:EE:FF"])
        #expect(rules.isDenied(try! BluetoothAddress("11:22:33:44:55:66")))
        #expect(!rules.isDenied(device.address))
        let broken = ConnectRules(rules: [rules.rules[0], ConnectRule(match: .init(service: "nope"), policy: .all)])
        #expect(broken.problems.count == 1 && broken.problems[0].hasPrefix("connect[1]: service:"))
    }
}

/// A device for the tables; addresses and UUIDs in the tables are well-formed.
func device(
    _ address: String, name: String? = nil, services: [String] = [], signal: Double? = nil,
    status: DeviceStatus = .available, remembered: Bool = false, manual: KnownDevice.Manual = .none
) -> KnownDevice {
    KnownDevice(
        address: try! BluetoothAddress(address), name: name, services: Set(services.map { try! BLEUUID($0) }),
        signal: signal, status: status, remembered: remembered, manual: manual)
}
