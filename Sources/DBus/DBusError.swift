/// A D-Bus failure: what kind, the D-Bus error name when there is one, the explanation and what was being done.
public struct DBusError: Error, Sendable, CustomStringConvertible {
    /// The kinds of failure a caller can act on.
    public enum Code: String, Sendable {
        /// The peer answered with an error reply; `name` holds its error name.
        case remote
        /// No reply arrived within the call's timeout.
        case timedOut
        /// The bus closed the connection (or it could not be used any more).
        case disconnected
        /// `close()` was called before the operation finished.
        case closed
        /// The calling task was cancelled.
        case cancelled
        /// The bus could not be reached or refused to register the connection.
        case connectionFailed
        /// A name, path, signature or value was not valid D-Bus; nothing was sent.
        case invalidArgument
        /// A received message could not be read into values.
        case decoding
        /// libdbus ran out of memory.
        case noMemory
    }

    /// The kind of failure.
    public let code: Code
    /// The D-Bus error name, e.g. `org.bluez.Error.InProgress`, for remote errors and libdbus failures.
    public let name: String?
    /// The error reply's message or the library's explanation.
    public let message: String
    /// What was being done, e.g. `call org.bluez.Adapter1.StartDiscovery on /org/bluez/hci0`.
    public let operation: String

    /// Creates an error.
    public init(_ code: Code, _ message: String, name: String? = nil, operation: String) {
        self.code = code
        self.message = message
        self.name = name
        self.operation = operation
    }

    /// `operation: name: message`.
    public var description: String {
        let detail = name.map { "\($0): \(message)" } ?? message
        return "\(operation): \(detail) [\(code.rawValue)]"
    }

    /// Returns the same error for another operation, so an inner failure names the call it happened in.
    func during(_ operation: String) -> DBusError {
        DBusError(code, message, name: name, operation: "\(operation): \(self.operation)")
    }
}

/// A value of another type than the one asked for: received data is never trusted, so readers report this
/// instead of converting or trapping.
public struct DBusTypeMismatch: Error, Sendable, Equatable, CustomStringConvertible {
    /// The signature that was asked for.
    public let expected: DBusSignature
    /// The signature of the value found (after unwrapping variants).
    public let actual: DBusSignature
    /// Where the value was found, e.g. `ManufacturerData`.
    public let context: String

    /// Creates a mismatch report.
    public init(expected: DBusSignature, actual: DBusSignature, context: String) {
        self.expected = expected
        self.actual = actual
        self.context = context
    }

    /// `context: expected …, got …`.
    public var description: String { "\(context): expected \(expected), got \(actual)" }
}
