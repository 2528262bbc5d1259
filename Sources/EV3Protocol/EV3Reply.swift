/// One frame from the brick, told apart by its type byte.
public enum EV3Reply: Sendable, Hashable {
    /// `02` or `04`: the answer to a direct command.
    case direct(EV3DirectReply)
    /// `03` or `05`: the answer to a system command.
    case system(EV3SystemReply)

    /// Parses one whole frame, length field included (as the framer yields it).
    public init(frame: [UInt8]) throws(EV3DecodingError) {
        let type = try checkedType(frame, minimum: 5)
        switch type {
        case 0x02, 0x04: self = .direct(try EV3DirectReply(frame: frame))
        case 0x03, 0x05: self = .system(try EV3SystemReply(frame: frame))
        default: throw .unknownType(type)
        }
    }

    /// The message counter, to match the reply with its request.
    public var counter: UInt16 {
        switch self {
        case .direct(let reply): reply.counter
        case .system(let reply): reply.counter
        }
    }
}

/// The answer to a direct command: `len cc cc 02|04` and the command's global memory.
public struct EV3DirectReply: Sendable, Hashable {
    /// The type byte.
    public enum Status: UInt8, Sendable, Hashable {
        /// `02` DIRECT_REPLY: ran, globals valid.
        case ok = 0x02
        /// `04` DIRECT_REPLY_ERROR: refused before running (the short `03 00 cc cc 04`, also sent when the
        /// brick is busy), or ran with a status other than OK (the globals are copied regardless).
        case error = 0x04
    }

    /// The echoed message counter.
    public let counter: UInt16
    /// Whether the command ran without error.
    public let status: Status
    /// The global memory, exactly as many bytes as the length field says.
    public let globals: [UInt8]

    /// Parses one whole frame; throws for short frames, a length field that disagrees with the bytes,
    /// and type bytes other than `02` and `04`.
    public init(frame: [UInt8]) throws(EV3DecodingError) {
        let type = try checkedType(frame, minimum: 5)
        guard let status = Status(rawValue: type) else { throw .unknownType(type) }
        self.counter = readLittleEndian(UInt16.self, frame[2...])
        self.status = status
        self.globals = Array(frame[5...])
    }

    /// Creates a reply, as a simulator would send it.
    public init(counter: UInt16, status: Status, globals: [UInt8]) {
        self.counter = counter
        self.status = status
        self.globals = globals
    }

    /// The frame as the brick sends it: length `3 + globals`, counter, type, globals.
    public var bytes: [UInt8] {
        var frame: [UInt8] = []
        appendLittleEndian(UInt16(truncatingIfNeeded: 3 + globals.count), to: &frame)
        appendLittleEndian(counter, to: &frame)
        frame.append(status.rawValue)
        return frame + globals
    }

    /// Checks that this answers `command`: the same counter, and the memory it reserved (an error reply
    /// may also come without any, when the brick refused the command before running it).
    public func check(answering command: EV3DirectCommand) throws(EV3DecodingError) {
        guard counter == command.counter else { throw .counterMismatch(expected: command.counter, got: counter) }
        let shortError = status == .error && globals.isEmpty
        guard globals.count == command.globalSize || shortError else {
            throw .globalsSize(expected: command.globalSize, got: globals.count)
        }
    }
}

/// Checks the length field against the frame and returns the type byte.
func checkedType(_ frame: [UInt8], minimum: Int) throws(EV3DecodingError) -> UInt8 {
    guard frame.count >= minimum else { throw .truncated(needed: minimum, got: frame.count) }
    let length = Int(readLittleEndian(UInt16.self, frame))
    guard length == frame.count - 2 else { throw .lengthMismatch(field: length, actual: frame.count - 2) }
    return frame[4]
}
