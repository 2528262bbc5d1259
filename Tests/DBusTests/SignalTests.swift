import DBus
import TestSupport
import Testing

/// Subscriptions: match rules in place before `subscribe` returns, typed bodies, senders followed by name.
@Suite(.tags(.bus), .needs(.bus)) struct SignalTests {
    @Test("a signal the mock emits right after subscribing arrives with its typed body", .needs(.busMock))
    func typedBody() async throws {
        try await Bus.with { bus in
            let mock = try await bus.mock()
            let signals = try await bus.connection.subscribe(
                DBusMatchRule(sender: mock.name, interface: mock.interface, member: "Changed"))
            let properties = DBusValue.vardict(["RSSI": .int16(-40), "ManufacturerData": .dictionary(
                key: "q", value: "v", [DBusDictEntry(key: .uint16(0x004c), value: .variant(.bytes([2, 21])))])])
            try await bus.emit(mock, "Changed", signature: "sa{sv}as", [.string("org.bluez.Device1"), properties, .strings(["TxPower"])])
            let signal = try #require(try await first(signals, "Changed"))
            #expect(signal.member == "Changed")
            #expect(signal.interface == mock.interface)
            #expect(signal.path == mock.path)
            #expect(signal.sender == (try await bus.connection.nameOwner(mock.name)))
            #expect(signal.body == [.string("org.bluez.Device1"), properties, .strings(["TxPower"])])
            #expect(signal.body[1]["RSSI"]?.int16 == -40)
            #expect(try signal.body[1]["ManufacturerData"]?.get([UInt16: DBusValue].self)[0x004c]?.bytes == [2, 21])
        }
    }

    @Test("a subscription to a well-known name receives only that name's signals", .needs(.busMock))
    func senderFollowsName() async throws {
        try await Bus.with { bus in
            let one = try await bus.mock(name: "com.example.First")
            let two = try await bus.mock(name: "com.example.Second")
            let fromSecond = try await bus.connection.subscribe(DBusMatchRule(sender: two.name, member: "Tick"))
            let fromAnyone = try await bus.connection.subscribe(DBusMatchRule(member: "Tick"))
            try await bus.emit(one, "Tick", signature: "s", [.string("first")])
            try await bus.emit(two, "Tick", signature: "s", [.string("second")])
            #expect(try await first(fromAnyone, "first Tick")?.body == [.string("first")])
            #expect(try await first(fromAnyone, "second Tick")?.body == [.string("second")])
            #expect(try await first(fromSecond, "Tick from the second mock")?.body == [.string("second")])
        }
    }

    @Test("a subscription to a well-known name follows it to a restarted service", .needs(.busMock))
    func followsRestart() async throws {
        try await Bus.with { bus in
            let before = try await bus.mock()
            let signals = try await bus.connection.subscribe(DBusMatchRule(sender: before.name, member: "Tick"))
            try await bus.emit(before, "Tick", signature: "s", [.string("before")])
            let firstTick = try #require(try await first(signals, "Tick before the restart"))
            try await before.kill()
            let after = try await bus.mock()
            try await bus.emit(after, "Tick", signature: "s", [.string("after")])
            let secondTick = try #require(try await first(signals, "Tick after the restart"))
            #expect(secondTick.body == [.string("after")])
            #expect(secondTick.sender != firstTick.sender)
        }
    }

    @Test("path_namespace and arg0 narrow what a subscription receives")
    func pathAndArg0() async throws {
        try await Bus.with { bus in
            let emitter = try await bus.connect()
            let below = try await bus.connection.subscribe(DBusMatchRule(member: "Note", pathNamespace: "/org/bluez"))
            let keyed = try await bus.connection.subscribe(DBusMatchRule(member: "Note", arg0: "wanted"))
            try emitter.emit(path: "/org/bluezz", interface: "com.example.T", member: "Note", arguments: [.string("wanted")])
            try emitter.emit(path: "/org/bluez/hci0", interface: "com.example.T", member: "Note", arguments: [.string("other")])
            #expect(try await first(below, "Note below /org/bluez")?.path == "/org/bluez/hci0")
            #expect(try await first(keyed, "Note with arg0 wanted")?.path == "/org/bluezz")
            await emitter.close()
        }
    }

    @Test("the owner of a name is followed as its process comes and goes", .needs(.busMock))
    func nameOwnerChanges() async throws {
        try await Bus.with { bus in
            let owners = try await bus.connection.watchNameOwner("com.example.Mock")
            #expect(try await first(owners, "the initial owner") == .some(nil))
            let mock = try await bus.mock()
            let owner = try #require(try await first(owners, "the mock's owner"))
            #expect(owner?.hasPrefix(":") == true)
            try await mock.kill()
            #expect(try await first(owners, "the owner going away") == .some(nil))
        }
    }

    @Test("a name requested by another connection appears and disappears with that connection")
    func requestedName() async throws {
        try await Bus.with { bus in
            let owners = try await bus.connection.watchNameOwner("com.example.Owned")
            #expect(try await first(owners, "no owner yet") == .some(nil))
            let other = try await bus.connect()
            try await other.requestName("com.example.Owned")
            #expect(try await first(owners, "the new owner") == .some(other.uniqueName))
            let changes = try await bus.connection.subscribe(.nameOwnerChanged(of: "com.example.Owned"))
            await other.close()
            #expect(try await first(owners, "the owner leaving") == .some(nil))
            // The signal of the name's acquisition may still be queued on this connection when the subscription
            // starts, and then reaches it first: the release is the one with no new owner.
            let change = try #require(
                try await first(changes, "NameOwnerChanged releasing the name") { $0.body.last == .string("") })
            #expect(change.body == [.string("com.example.Owned"), .string(other.uniqueName), .string("")])
        }
    }

    @Test("a name already owned by another connection is refused")
    func nameTaken() async throws {
        try await Bus.with { bus in
            try await bus.connection.requestName("com.example.Taken")
            let other = try await bus.connect()
            let error = try await #require(throws: DBusError.self) { try await other.requestName("com.example.Taken") }
            #expect(error.code == .remote)
            await other.close()
        }
    }
}
