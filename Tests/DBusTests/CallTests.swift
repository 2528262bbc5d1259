import DBus
import TestSupport
import Testing

/// Method calls through a real dbus-daemon: the daemon's own methods and a python-dbusmock service that
/// echoes what it gets.
@Suite(.tags(.bus), .needs(.bus)) struct CallTests {
    @Test("the bus daemon answers Ping, ListNames and GetNameOwner")
    func busDaemon() async throws {
        try await Bus.with { bus in
            let connection = bus.connection
            #expect(connection.uniqueName.hasPrefix(":"))
            let ping = try await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus.Peer",
                method: "Ping")
            #expect(ping.isEmpty)
            let names = try await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                method: "ListNames")
            let listed = try #require(names.first).get([String].self)
            #expect(listed.contains("org.freedesktop.DBus"))
            #expect(listed.contains(connection.uniqueName))
            #expect(try await connection.nameOwner("org.freedesktop.DBus") == "org.freedesktop.DBus")
            #expect(try await connection.nameOwner(connection.uniqueName) == connection.uniqueName)
            #expect(try await connection.nameOwner("com.example.Nobody") == nil)
        }
    }

    @Test("every sample value comes back unchanged from a service that echoes it", .needs(.busMock))
    func echoEveryValue() async throws {
        try await Bus.with { bus in
            let mock = try await bus.mock()
            for (index, (value, signature)) in Samples.all.enumerated() {
                try await bus.addMethod(mock, "Echo\(index)", in: signature, out: signature, code: "ret = args[0]")
                let reply = try await bus.callMock(mock, "Echo\(index)", [value], signature: DBusSignature(signature))
                #expect(reply == [value], "\(signature): \(value)")
            }
        }
    }

    @Test("several arguments of every basic type come back in order", .needs(.busMock))
    func echoSeveral() async throws {
        try await Bus.with { bus in
            let mock = try await bus.mock()
            let signature = Samples.basics.map(\.1).joined()
            try await bus.addMethod(mock, "EchoAll", in: signature, out: signature, code: "ret = tuple(args)")
            let values = Samples.basics.map(\.0)
            #expect(try await bus.callMock(mock, "EchoAll", values, signature: DBusSignature(signature)) == values)
        }
    }

    @Test("a value's own signature is used when the call gives none", .needs(.busMock))
    func implicitSignature() async throws {
        try await Bus.with { bus in
            let mock = try await bus.mock()
            try await bus.addMethod(mock, "Describe", in: "sa{sv}aay", out: "s", code: "ret = '%s %d %d' % (args[0], len(args[1]), len(args[2]))")
            let reply = try await bus.callMock(
                mock, "Describe", [.string("x"), .vardict(["a": .int32(1), "b": .bool(true)]), .array("ay", [.bytes([1]), .bytes([])])])
            #expect(reply == [.string("x 2 2")])
        }
    }

    @Test("a large byte array crosses the bus in one piece", .needs(.busMock))
    func largeBytes() async throws {
        try await Bus.with { bus in
            let mock = try await bus.mock()
            try await bus.addMethod(mock, "EchoBytes", in: "ay", out: "ay", code: "ret = args[0]")
            let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            #expect(try await bus.callMock(mock, "EchoBytes", [.bytes(bytes)]) == [.bytes(bytes)])
        }
    }
}
