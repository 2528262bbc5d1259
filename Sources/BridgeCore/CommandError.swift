/// A command that was refused before it reached a device, or that the device failed.
public struct CommandError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, phrased for the person who sent the command.
    public var message: String

    /// Creates an error with a user-facing message.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
