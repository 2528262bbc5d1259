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
