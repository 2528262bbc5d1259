import DBus
import Synchronization
import TestSupport
import Testing

extension Tag {
    /// Tests that run against a real dbus-daemon (and python-dbusmock) started by the test.
    @Tag static var bus: Self
}

/// A private bus with one connected client; `mock` adds a python-dbusmock service on it.
struct Bus {
    let daemon: DBusDaemon
    let connection: DBusConnection

    /// Starts a daemon and connects to it.
    static func start() async throws -> Bus {
        let daemon = try await DBusDaemon.start()
        let connection = try await DBusConnection.connect(to: DBusAddress(daemon.address))
        return Bus(daemon: daemon, connection: connection)
    }

    /// Runs `body` on a fresh bus and closes the client afterwards, whatever happens.
    static func with<T>(_ body: (Bus) async throws -> T) async throws -> T {
        let bus = try await start()
        do {
            let result = try await body(bus)
            await bus.connection.close()
            return result
        } catch {
            await bus.connection.close()
            throw error
        }
    }

    /// Another client on the same bus.
    func connect() async throws -> DBusConnection {
        try await DBusConnection.connect(to: DBusAddress(daemon.address))
    }

    /// Starts a dbusmock service and waits until it owns its name.
    func mock(name: String = "com.example.Mock") async throws -> DBusMock {
        let mock = try DBusMock(on: daemon, name: name)
        _ = try await waitForValue("dbusmock to own \(name)") { () -> String? in
            guard mock.isRunning else { throw TestFailure("dbusmock exited:\n\(mock.log)") }
            return try await connection.nameOwner(name)
        }
        return mock
    }

    /// Calls a method of the mock's `org.freedesktop.DBus.Mock` control interface.
    @discardableResult
    func control(_ mock: DBusMock, _ method: String, _ arguments: [DBusValue], signature: DBusSignature) async throws
        -> [DBusValue]
    {
        try await connection.call(
            destination: mock.name, path: mock.path, interface: "org.freedesktop.DBus.Mock", method: method,
            arguments: arguments, signature: signature)
    }

    /// Adds a method to the mock's main interface whose Python `code` sets `ret`.
    func addMethod(_ mock: DBusMock, _ name: String, in inSignature: String, out outSignature: String, code: String)
        async throws
    {
        try await control(
            mock, "AddMethod", [.string(""), .string(name), .string(inSignature), .string(outSignature), .string(code)],
            signature: "sssss")
    }

    /// Calls a method on the mock's main interface.
    func callMock(
        _ mock: DBusMock, _ method: String, _ arguments: [DBusValue] = [], signature: DBusSignature? = nil,
        timeout: Duration = .seconds(10)
    ) async throws(DBusError) -> [DBusValue] {
        try await connection.call(
            destination: mock.name, path: mock.path, interface: mock.interface, method: method, arguments: arguments,
            signature: signature, timeout: timeout)
    }

    /// Makes the mock emit a signal from its object.
    func emit(_ mock: DBusMock, _ member: String, signature: String, _ arguments: [DBusValue]) async throws {
        try await control(
            mock, "EmitSignal",
            [.string(mock.interface), .string(member), .string(signature), .array("v", arguments.map(DBusValue.variant))],
            signature: "sssav")
    }
}

/// The next element of a stream that satisfies `predicate`; fails the test instead of waiting forever, and
/// returns nil if the stream finishes first.
func first<Element: Sendable>(
    _ stream: AsyncStream<Element>, _ what: String, timeout: Duration = .seconds(10),
    where predicate: @escaping @Sendable (Element) -> Bool = { _ in true }
) async throws -> Element? {
    try await withThrowingTaskGroup(of: Element?.self) { group in
        group.addTask {
            for await element in stream where predicate(element) { return element }
            return nil
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw TestFailure("timed out after \(timeout) waiting for \(what)")
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
    }
}

/// The code of the error a call ended with, or nil if it succeeded.
func failureCode(_ body: () async throws(DBusError) -> Void) async -> DBusError.Code? {
    do {
        try await body()
        return nil
    } catch {
        return error.code
    }
}

/// Runs `body`, failing after `limit` if it has not finished: a stalled connection must fail the test rather
/// than hang the run (the stuck task is cancelled and left behind).
func within<T: Sendable>(
    _ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let waiter = Waiter<T>()
    return try await withCheckedThrowingContinuation { continuation in
        waiter.slot.withLock { $0 = continuation }
        let work = Task {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            waiter.slot.withLock { $0.take() }?.resume(with: result)
        }
        Task {
            try? await Task.sleep(for: limit)
            guard let pending = waiter.slot.withLock({ $0.take() }) else { return }
            work.cancel()
            pending.resume(throwing: TestFailure("\(what) did not finish within \(limit)"))
        }
    }
}

/// The continuation `within` resumes once, from whichever of its two tasks gets there first.
private final class Waiter<T: Sendable>: Sendable {
    let slot = Mutex<CheckedContinuation<T, any Error>?>(nil)
}
