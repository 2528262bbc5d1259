import BridgeCore

/// What a bridge sends on its own clock: its shared signals and the renewal of its claims.
extension ClusterState {
    /// The signals due, once per observation interval or at once after a jump, in messages of at most `batch`
    /// devices: so a bridge sends about one message per interval however many devices it hears.
    mutating func share(now: ContinuousClock.Instant) -> [ClusterAction] {
        guard !dueSignals.isEmpty, signalJumped || (sharedAt.map { now - $0 >= timings.observation } ?? true) else { return [] }
        sharedAt = now
        signalJumped = false
        defer { dueSignals = [:] }
        let entries = dueSignals.sorted { $0.key.rawValue < $1.key.rawValue }
        return stride(from: 0, to: entries.count, by: Self.batch).map { start in
            let part = entries[start..<min(start + Self.batch, entries.count)]
            let payload = JSONValue.object(Dictionary(uniqueKeysWithValues: part.map { due in
                var shared = devices[due.key]?.observations[me] ?? Observation(rssi: due.value, at: now)
                shared.rssi = due.value
                return (due.key.rawValue, shared.json)
            }))
            return .publish(topic: topics.observations(me), payload: payload, retain: false)
        }
    }

    /// Every `renewal_interval`, one message renews the claims of every device this bridge still keeps.
    mutating func renew(now: ContinuousClock.Instant) -> [ClusterAction] {
        guard renewedAt.map({ now - $0 >= timings.renewal }) ?? true else { return [] }
        renewedAt = now
        let kept = renewable.sorted { $0.rawValue < $1.rawValue }
        guard !kept.isEmpty else { return [] }
        for device in kept { devices[device]?.claimAt = now }
        return stride(from: 0, to: kept.count, by: Self.batch).map { start in
            let part = kept[start..<min(start + Self.batch, kept.count)]
            let terms = Dictionary(uniqueKeysWithValues: part.map { ($0.rawValue, JSONValue.number(Double(devices[$0]?.claim?.term ?? 0))) })
            return .publish(topic: topics.renewal(me), payload: ["epoch": .number(Double(epoch)), "devices": .object(terms)], retain: false)
        }
    }

    /// Devices per shared-signal or renewal message, so one stays under 16 KB.
    static let batch = 500
}
