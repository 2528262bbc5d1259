public import Support

/// The `ble.connect` rules in order and the `ble.deny` addresses, as the config file gives them.
public struct ConnectRules: Sendable, Hashable {
    /// The rules; the first that matches a device decides for it.
    public let rules: [ConnectRule]
    /// Addresses that are never connected by a policy, as written.
    public let deny: [String]
    /// Problems with the deny list, each naming the entry.
    public let denyProblems: [String]

    private let denied: Set<BluetoothAddress>

    /// Parses the deny list; malformed entries are reported by `problems` and otherwise ignored.
    public init(rules: [ConnectRule] = [], deny: [String] = []) {
        self.rules = rules
        self.deny = deny
        var denied: Set<BluetoothAddress> = []
        var problems: [String] = []
        for (index, text) in deny.enumerated() {
            do throws(BluetoothAddressError) { denied.insert(try BluetoothAddress(text)) } catch {
                problems.append("deny[\(index)]: \(error)")
            }
        }
        self.denied = denied
        denyProblems = problems
    }

    /// Every problem of the section, prefixed with where it is (`connect[1]: service: …`).
    public var problems: [String] {
        rules.enumerated().flatMap { index, rule in rule.problems.map { "connect[\(index)]: \($0)" } } + denyProblems
    }

    /// The first rule that claims the device, with its index.
    public func rule(for device: KnownDevice) -> (index: Int, rule: ConnectRule)? {
        rules.enumerated().first { $0.element.matches(device) }.map { ($0.offset, $0.element) }
    }

    /// Whether the address is on the deny list.
    public func isDenied(_ address: BluetoothAddress) -> Bool { denied.contains(address) }
}
