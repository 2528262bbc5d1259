public import Support

extension ConnectPolicy {
    /// `closest`: keep the strongest eligible devices connected, up to `limit`.
    ///
    /// Free places are filled at once, strongest first. A device takes the place of the weakest connected one
    /// only after it has been stronger by at least `margin` at every evaluation for `hold` seconds; any
    /// evaluation where it is not restarts its clock. Two devices whose signals stay within `margin` of each
    /// other therefore never trade places, however their order changes.
    mutating func closest(
        _ eligible: [KnownDevice], limit: Int, now: Double, into decision: inout ConnectDecision,
        challengers: inout Set<BluetoothAddress>
    ) {
        let ordered = eligible.sorted(by: Self.stronger)
        var holding = ordered.filter(\.holdsConnection)
        var waiting = ordered.filter { !$0.holdsConnection }[...]
        let limit = max(limit, 1)
        if holding.count > limit {
            decision.disconnect += holding[limit...].map(\.address)
            holding.removeLast(holding.count - limit)
        }
        while holding.count < limit, let next = waiting.popFirst() {
            decision.connect.append(next.address)
            holding.append(next)
        }
        var weakestFirst = holding.reversed()[...]
        for challenger in waiting {
            guard let weakest = weakestFirst.first else { break }
            // Waiting devices come strongest first: once one falls short, the rest do too. The tolerance keeps
            // "at least 0.2 stronger" true for 0.8 against 0.6 despite binary fractions.
            guard strength(challenger) >= strength(weakest) + margin - 1e-9 else { break }
            let since = challenges[challenger.address] ?? now
            if now - since >= hold {
                decision.disconnect.append(weakest.address)
                decision.connect.append(challenger.address)
                weakestFirst.removeFirst()
                challenges[challenger.address] = nil
            } else {
                challenges[challenger.address] = since
                challengers.insert(challenger.address)
            }
        }
    }

    /// The devices the `closest` rules would keep connected if every device were free to connect: each rule's
    /// `max_devices` strongest eligible members, without the hysteresis. A bridge of a cluster holds down the
    /// devices it does not own, so this, not `evaluate`, says which it would connect once it owned them.
    public func closestPicks(_ devices: [KnownDevice]) -> Set<BluetoothAddress> {
        var members: [Int: [KnownDevice]] = [:]
        for device in devices {
            guard let (index, rule) = rules.rule(for: device), rule.policy == .closest, isEligible(device, under: rule) else { continue }
            members[index, default: []].append(device)
        }
        var picks: Set<BluetoothAddress> = []
        for (index, group) in members {
            picks.formUnion(group.sorted(by: Self.stronger).prefix(max(rules.rules[index].maxDevices, 1)).map(\.address))
        }
        return picks
    }

    /// The signal used for ranking; a connected device with no reading ranks last.
    private func strength(_ device: KnownDevice) -> Double { device.signal ?? 0 }

    /// Stronger first; equal signals by address, so the order never depends on the input's.
    private static func stronger(_ lhs: KnownDevice, _ rhs: KnownDevice) -> Bool {
        let left = lhs.signal ?? 0, right = rhs.signal ?? 0
        return left != right ? left > right : lhs.address < rhs.address
    }
}
