import DBus
import TestSupport
import Testing

/// Match rules on the bus daemon follow the streams that asked for them.
@Suite(.tags(.bus), .needs(.bus)) struct LifecycleTests {
    /// The match rules the daemon holds for a connection (its Debug.Stats interface).
    private static func matchRules(_ bus: Bus) async throws -> UInt32? {
        let stats = try await bus.connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus.Debug.Stats",
            method: "GetConnectionStats", arguments: [.string(bus.connection.uniqueName)])
        return stats.first?["MatchRules"]?.uint32
    }

    @Test("dropping a subscription's stream removes its match rules from the bus", .needs(.busMock))
    func rulesFollowStreams() async throws {
        try await Bus.with { bus in
            let mock = try await bus.mock()
            let baseline = try #require(try await Self.matchRules(bus))
            var plain: AsyncStream<DBusSignal>? = try await bus.connection.subscribe(DBusMatchRule(member: "A"))
            #expect(try await Self.matchRules(bus) == baseline + 1)
            // A well-known sender adds its NameOwnerChanged rule as well.
            var followed: AsyncStream<DBusSignal>? = try await bus.connection.subscribe(DBusMatchRule(sender: mock.name))
            #expect(try await Self.matchRules(bus) == baseline + 3)
            plain = nil
            followed = nil
            try await waitUntil("the rules to be removed") { try await Self.matchRules(bus) == baseline }
            #expect(plain == nil && followed == nil)
        }
    }

    @Test("a watch on a name owner removes its rule when its stream is dropped")
    func ownerWatchRule() async throws {
        try await Bus.with { bus in
            let baseline = try #require(try await Self.matchRules(bus))
            var owners: AsyncStream<String?>? = try await bus.connection.watchNameOwner("com.example.Watched")
            #expect(owners != nil)
            #expect(try await Self.matchRules(bus) == baseline + 1)
            owners = nil
            try await waitUntil("the rule to be removed") { try await Self.matchRules(bus) == baseline }
        }
    }

    @Test("a connection that is dropped without close() is closed and its names released")
    func deinitCloses() async throws {
        try await Bus.with { bus in
            var other: DBusConnection? = try await bus.connect()
            try await other?.requestName("com.example.Dropped")
            #expect(try await bus.connection.nameOwner("com.example.Dropped") != nil)
            other = nil
            try await waitUntil("the name to be released") { try await bus.connection.nameOwner("com.example.Dropped") == nil }
        }
    }
}
