/// Why a UUID in config or from the bus cannot be used.
public struct BLEFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, quoting the offending text.
    public let description: String

    init(_ description: String) { self.description = description }
}
