@testable import DBus
import TestSupport
import Testing

/// Many callers at once, and calls that are still waiting when the connection ends.
@Suite(.tags(.bus), .needs(.bus)) struct ConcurrencyTests {
    private static func ping(_ connection: DBusConnection) async throws(DBusError) {
        _ = try await connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus.Peer",
            method: "Ping")
    }

    /// How many calls have been sent and wait for their reply.
    private static func waiting(_ connection: DBusConnection) -> Int {
        connection.core.calls.withLock { $0.entries.values.filter { $0.pending != nil }.count }
    }

    @Test("200 concurrent calls from several tasks are all answered")
    func concurrentPings() async throws {
        try await Bus.with { bus in
            let connection = bus.connection
            let answered = try await within(.seconds(60), "200 pings") {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<8 {
                        group.addTask {
                            try await withThrowingTaskGroup(of: Void.self) { calls in
                                for _ in 0..<25 { calls.addTask { try await Self.ping(connection) } }
                                var count = 0
                                for try await _ in calls { count += 1 }
                                return count
                            }
                        }
                    }
                    return try await group.reduce(0, +)
                }
            }
            #expect(answered == 200)
        }
    }

    @Test("closing the connection fails every waiting call with .closed", .needs(.busMock))
    func closeFailsWaitingCalls() async throws {
        let bus = try await Bus.start()
        let mock = try await bus.mock()
        mock.pause()
        defer { mock.resume() }
        let connection = bus.connection
        let outcomes = Task {
            await withTaskGroup(of: DBusError.Code?.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        await failureCode { () async throws(DBusError) in
                            _ = try await bus.callMock(mock, "Anything", timeout: .seconds(120))
                        }
                    }
                }
                return await group.reduce(into: [DBusError.Code?]()) { $0.append($1) }
            }
        }
        try await waitUntil("20 calls to be sent") { Self.waiting(connection) == 20 }
        await connection.close()
        let codes = try await within(.seconds(60), "the waiting calls") { await outcomes.value }
        #expect(codes == Array(repeating: DBusError.Code.closed, count: 20))
        #expect(!connection.isOpen)
        #expect(try await first(connection.events, "the end event") == .closed)
        await #expect(throws: DBusError.self) { try await Self.ping(connection) }
    }

    @Test("cancelling the calling task fails its call with .cancelled and leaves the connection working", .needs(.busMock))
    func cancellation() async throws {
        try await Bus.with { bus in
            let mock = try await bus.mock()
            mock.pause()
            defer { mock.resume() }
            let call = Task {
                await failureCode { () async throws(DBusError) in
                    _ = try await bus.callMock(mock, "Anything", timeout: .seconds(120))
                }
            }
            try await waitUntil("the call to be sent") { Self.waiting(bus.connection) == 1 }
            call.cancel()
            #expect(try await within(.seconds(60), "the cancelled call") { await call.value } == .cancelled)
            #expect(Self.waiting(bus.connection) == 0)
            try await Self.ping(bus.connection)
        }
    }

    @Test("losing the bus fails waiting calls, ends subscriptions and reports .disconnected", .needs(.busMock))
    func busGoesAway() async throws {
        let bus = try await Bus.start()
        let mock = try await bus.mock()
        mock.pause()
        defer { mock.resume() }
        let connection = bus.connection
        let signals = try await connection.subscribe(DBusMatchRule(member: "Never"))
        let call = Task {
            await failureCode { () async throws(DBusError) in
                _ = try await bus.callMock(mock, "Anything", timeout: .seconds(120))
            }
        }
        try await waitUntil("the call to be sent") { Self.waiting(connection) == 1 }
        try await bus.daemon.stop()
        #expect(try await within(.seconds(60), "the waiting call") { await call.value } == .disconnected)
        #expect(try await first(connection.events, "the end event") == .disconnected)
        #expect(try await first(signals, "the stream to finish") == nil)
        let error = try await #require(throws: DBusError.self) { try await Self.ping(connection) }
        #expect(error.code == .disconnected)
        await connection.close()
    }

    @Test("a burst of signals arrives complete and in order")
    func signalBurst() async throws {
        try await Bus.with { bus in
            let emitter = try await bus.connect()
            let signals = try await bus.connection.subscribe(DBusMatchRule(sender: emitter.uniqueName, member: "Count"))
            for index in 0..<5_000 {
                try emitter.emit(path: "/burst", interface: "com.example.Burst", member: "Count", arguments: [.uint32(UInt32(index))])
            }
            let received = try await withThrowingTaskGroup(of: [UInt32].self) { group in
                group.addTask {
                    var values: [UInt32] = []
                    for await signal in signals {
                        values.append(signal.body.first?.uint32 ?? .max)
                        if values.count == 5_000 { break }
                    }
                    return values
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(30))
                    throw TestFailure("the burst did not arrive within 30 s")
                }
                defer { group.cancelAll() }
                return try await group.next() ?? []
            }
            #expect(received == (0..<5_000).map(UInt32.init))
            await emitter.close()
        }
    }
}
