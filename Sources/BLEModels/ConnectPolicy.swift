public import Support

/// What the policies want done: devices to connect and devices to disconnect, each sorted by address.
public struct ConnectDecision: Sendable, Hashable {
    /// Devices to connect.
    public var connect: [BluetoothAddress]
    /// Devices to disconnect.
    public var disconnect: [BluetoothAddress]

    /// Creates a decision.
    public init(connect: [BluetoothAddress] = [], disconnect: [BluetoothAddress] = []) {
        self.connect = connect
        self.disconnect = disconnect
    }

    /// Whether nothing is to be done.
    public var isEmpty: Bool { connect.isEmpty && disconnect.isEmpty }
}

/// The auto-connect engine: given every known device and the time, which to connect and which to disconnect.
/// Run it on every change of signal, status or rules, and at `nextReview`. Without I/O; times are seconds on
/// a monotonic clock.
///
/// - A manual disconnect holds a device down, whatever its rule; a manual connect holds it up (it is connected
///   again whenever it is in range and down, e.g. after bluetoothd restarted) and takes no place of a rule's
///   `max_devices`. Either lasts until the other or a restart of the bridge.
/// - Otherwise a device belongs to the first rule that matches it; a connected device that no rule claims is
///   disconnected, so a reload that drops a rule takes its connections down.
/// - Eligible means: not denied, not `unavailable`, and a signal of at least `min_signal`. A connected device
///   whose signal is unknown keeps its connection, since many stop advertising once connected.
/// - `closest` moves a connection only with hysteresis, see `ConnectPolicy.margin` and `hold`.
public struct ConnectPolicy: Sendable {
    /// The rules in force; replace them on reload.
    public var rules: ConnectRules
    /// How much stronger (in signal, 0–1) a device must be than a connected one to take its place.
    public let margin: Double
    /// How long, in seconds, it must stay that much stronger, without a break, before the move.
    public let hold: Double
    /// Since when each challenger has been clearly stronger than the weakest connected device of its rule.
    public internal(set) var challenges: [BluetoothAddress: Double] = [:]

    /// Creates an engine; `closest` moves to a device stronger by `margin` for `hold` seconds.
    public init(rules: ConnectRules, margin: Double = 0.2, hold: Double = 10) {
        self.rules = rules
        self.margin = margin
        self.hold = hold
    }

    /// When a pending move falls due, if one is pending: evaluate again then, even if nothing changed.
    public var nextReview: Double? { challenges.values.min().map { $0 + hold } }

    /// Decides for every device. Unknown devices are not remembered beyond a pending challenge.
    public mutating func evaluate(_ devices: [KnownDevice], now: Double) -> ConnectDecision {
        var decision = ConnectDecision()
        var claimed: [Int: [KnownDevice]] = [:]
        for device in devices {
            switch device.manual {
            case .connected:
                if !device.holdsConnection, device.status != .unavailable { decision.connect.append(device.address) }
            case .disconnected:
                if device.holdsConnection { decision.disconnect.append(device.address) }
            case .none:
                if let (index, _) = rules.rule(for: device) {
                    claimed[index, default: []].append(device)
                } else if device.holdsConnection {
                    decision.disconnect.append(device.address)
                }
            }
        }
        var challengers: Set<BluetoothAddress> = []
        for (index, members) in claimed {
            let rule = rules.rules[index]
            let eligible = members.filter { isEligible($0, under: rule) }
            let eligibleAddresses = Set(eligible.map(\.address))
            for device in members where device.holdsConnection && !eligibleAddresses.contains(device.address) {
                decision.disconnect.append(device.address)
            }
            switch rule.policy {
            case .never:
                decision.disconnect += eligible.filter(\.holdsConnection).map(\.address)
            case .all:
                decision.connect += eligible.filter { !$0.holdsConnection }.map(\.address)
            case .remembered:
                decision.connect += eligible.filter { $0.remembered && !$0.holdsConnection }.map(\.address)
                decision.disconnect += eligible.filter { !$0.remembered && $0.holdsConnection }.map(\.address)
            case .closest:
                closest(eligible, limit: rule.maxDevices, now: now, into: &decision, challengers: &challengers)
            }
        }
        // Only challenges still running survive, so the table never outgrows the devices in range.
        challenges = challenges.filter { challengers.contains($0.key) }
        decision.connect.sort()
        decision.disconnect.sort()
        return decision
    }

    func isEligible(_ device: KnownDevice, under rule: ConnectRule) -> Bool {
        guard !rules.isDenied(device.address), device.status != .unavailable else { return false }
        guard let signal = device.signal else { return device.holdsConnection }
        return signal >= rule.minSignal
    }
}
