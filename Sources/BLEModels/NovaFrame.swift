import Support

/// What a Nova flash is asked to do in one request.
public enum NovaCommand: Sendable, Hashable {
    /// Light the warm and cool banks at these PWM duties until `timeout` milliseconds pass without a renewal.
    case light(warm: UInt8, cool: UInt8, timeout: UInt16)
    /// Both banks dark.
    case off
    /// A no-op the flash acknowledges, to check the link.
    case ping

    /// The command as the SDKs send it: a light with both banks at 0, or with no timeout, is an `off`.
    public var normalized: NovaCommand {
        if case .light(let warm, let cool, let timeout) = self, (warm == 0 && cool == 0) || timeout == 0 { return .off }
        return self
    }
}

/// One request frame for the flash's request characteristic (`FFF3`): ASCII
/// `(<id>:<body>)` with uppercase hex and no terminator.
public struct NovaFrame: Sendable, Hashable, CustomStringConvertible {
    /// The request id the acknowledgement echoes.
    public let id: UInt8
    /// The command, already normalised (a dark light is `off`).
    public let command: NovaCommand

    /// Creates a frame; a light with both banks at 0 or a zero timeout becomes `off`, as in the SDKs.
    public init(id: UInt8, command: NovaCommand) {
        self.id = id
        self.command = command.normalized
    }

    /// The frame text, e.g. `(01:L,FF,00,05DC)`.
    public var description: String {
        let body: String
        switch command {
        case .light(let warm, let cool, let timeout):
            let high = Hex.byte(UInt8(timeout >> 8), uppercase: true)
            let low = Hex.byte(UInt8(timeout & 0xFF), uppercase: true)
            body = "L," + Hex.byte(warm, uppercase: true) + "," + Hex.byte(cool, uppercase: true) + "," + high + low
        case .off: body = "O"
        case .ping: body = "P"
        }
        return "(" + Hex.byte(id, uppercase: true) + ":" + body + ")"
    }

    /// The bytes written to `FFF3`.
    public var bytes: [UInt8] { Array(description.utf8) }
}

/// Hands out request ids: the first is 1, then each one more, wrapping from 255 to 0 (as the Android SDK).
public struct NovaRequestIDs: Sendable, Hashable {
    /// The id handed out last.
    public private(set) var last: UInt8

    /// Starts after `last`, so the first id is `last + 1`.
    public init(last: UInt8 = 0) { self.last = last }

    /// The next id.
    public mutating func next() -> UInt8 {
        last &+= 1
        return last
    }
}
