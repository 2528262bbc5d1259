import Foundation

/// A failed expectation inside a test helper, with a message that says what was awaited.
public struct TestFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String

    /// Creates a failure.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

/// Polls `condition` until it is true; throws `TestFailure` naming `what` after `timeout`.
public func waitUntil(
    _ what: @autoclosure () -> String, timeout: Duration = .seconds(30), every interval: Duration = .milliseconds(20),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return }
        guard ContinuousClock.now < deadline else { throw TestFailure("timed out after \(timeout) waiting for \(what())") }
        try await Task.sleep(for: interval)
    }
}

/// Polls `produce` until it returns a value; throws `TestFailure` naming `what` after `timeout`.
public func waitForValue<T>(
    _ what: @autoclosure () -> String, timeout: Duration = .seconds(30), every interval: Duration = .milliseconds(20),
    _ produce: () async throws -> T?
) async throws -> T {
    let deadline = ContinuousClock.now + timeout
    while true {
        if let value = try await produce() { return value }
        guard ContinuousClock.now < deadline else { throw TestFailure("timed out after \(timeout) waiting for \(what())") }
        try await Task.sleep(for: interval)
    }
}

/// Runs `body`, failing with `TestFailure` naming `what` once `limit` has passed. The failure is also printed at
/// once: a body that ignores cancellation holds the thrown one back until it returns, and the log should still
/// name the step that waited.
public func withTimeLimit<T: Sendable>(
    _ what: String, _ limit: Duration, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            FileHandle.standardError.write(Data("timed out after \(limit) waiting for \(what)\n".utf8))
            throw TestFailure("timed out after \(limit) waiting for \(what)")
        }
        defer { group.cancelAll() }
        // The first to finish decides: the body's value, or the timer's failure.
        guard let value = try await group.next() else { throw CancellationError() }
        return value
    }
}
