import DBus
import TestSupport
import Testing

/// Failures of calls arrive as typed errors with their D-Bus names.
@Suite(.tags(.bus)) struct ErrorTests {
    @Test("an error reply surfaces its name and message", .needs(.busMock))
    func errorReply() async throws {
        try await Bus.with { bus in
            let mock = try await bus.mock()
            try await bus.addMethod(
                mock, "StartDiscovery", in: "", out: "",
                code: "raise dbus.exceptions.DBusException('Operation already in progress', name='org.bluez.Error.InProgress')")
            let error = try await #require(throws: DBusError.self) { try await bus.callMock(mock, "StartDiscovery") }
            #expect(error.code == .remote)
            #expect(error.name == "org.bluez.Error.InProgress")
            #expect(error.message == "Operation already in progress")
            #expect(error.operation.contains("StartDiscovery"))
        }
    }

    @Test("calls the bus cannot deliver fail with the daemon's error names", .needs(.bus))
    func undeliverable() async throws {
        try await Bus.with { bus in
            let unknownService = try await #require(throws: DBusError.self) {
                try await bus.connection.call(destination: "com.example.Nobody", path: "/", interface: "com.example.X", method: "Y")
            }
            #expect(unknownService.name == "org.freedesktop.DBus.Error.ServiceUnknown")
            let unknownMethod = try await #require(throws: DBusError.self) {
                try await bus.connection.call(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                    method: "NoSuchMethod")
            }
            #expect(unknownMethod.code == .remote)
            #expect(unknownMethod.name == "org.freedesktop.DBus.Error.UnknownMethod")
        }
    }

    @Test("a method call to a client connection is refused by libdbus instead of left unanswered", .needs(.bus))
    func callToClient() async throws {
        try await Bus.with { bus in
            let other = try await bus.connect()
            let error = try await #require(throws: DBusError.self) {
                try await bus.connection.call(destination: other.uniqueName, path: "/", interface: "com.example.X", method: "Y")
            }
            #expect(error.name == "org.freedesktop.DBus.Error.UnknownMethod")
            await other.close()
        }
    }

    @Test("a call nobody answers times out with a typed error", .needs(.busMock))
    func timeout() async throws {
        try await Bus.with { bus in
            let mock = try await bus.mock()
            mock.pause()
            defer { mock.resume() }
            let error = try await #require(throws: DBusError.self) {
                try await bus.callMock(mock, "Anything", timeout: .milliseconds(300))
            }
            #expect(error.code == .timedOut)
            #expect(error.name == "org.freedesktop.DBus.Error.NoReply")
            #expect(bus.connection.isOpen)
        }
    }

    @Test(
        "invalid names are refused before anything is sent", .needs(.bus),
        arguments: [
            ("not a bus name", "/p", "com.example.I", "M"), ("com.example.S", "relative", "com.example.I", "M"),
            ("com.example.S", "/p", "nodots", "M"), ("com.example.S", "/p", "com.example.I", "Bad.Member"),
            ("com.example.S", "/p", "com.example.I", ""),
        ])
    func invalidNames(destination: String, path: String, interface: String, method: String) async throws {
        try await Bus.with { bus in
            let error = try await #require(throws: DBusError.self) {
                try await bus.connection.call(destination: destination, path: path, interface: interface, method: method)
            }
            #expect(error.code == .invalidArgument)
        }
    }

    @Test("connecting to an address where no bus listens fails with a typed error")
    func noBus() async throws {
        let directory = try TemporaryDirectory(prefix: "nobus")
        defer { directory.remove() }
        let error = try await #require(throws: DBusError.self) {
            try await DBusConnection.connect(to: DBusAddress("unix:path=\(directory.file("missing"))"))
        }
        #expect(error.code == .connectionFailed)
        #expect(error.name != nil)
    }
}
