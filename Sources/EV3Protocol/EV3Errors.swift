import Support

/// Why a command could not be encoded. Nothing reaches the brick when this is thrown, so a bad value
/// from a user never becomes a frame.
public enum EV3EncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A number outside what its opcode or encoding accepts; `what` names the opcode and argument.
    case outOfRange(_ what: String, value: Int, allowed: ClosedRange<Int>)
    /// A string argument the firmware cannot take (a NUL inside, empty, too long).
    case invalidString(_ what: String, reason: String)
    /// No byte codes: the firmware answers a direct command without any with an error.
    case empty
    /// More global memory than one direct command may reserve; split the batch.
    case tooManyGlobals(Int, limit: Int)
    /// More local memory than the variable header can carry.
    case tooManyLocals(Int, limit: Int)
    /// The frame would be longer than the brick's message buffer; split the batch.
    case tooLong(bytes: Int, limit: Int)

    /// A one-line explanation naming the offending value.
    public var description: String {
        switch self {
        case .outOfRange(let what, let value, let allowed):
            "\(what) \(value) is outside \(allowed.lowerBound)...\(allowed.upperBound)"
        case .invalidString(let what, let reason): "\(what): \(reason)"
        case .empty: "a direct command needs at least one instruction"
        case .tooManyGlobals(let count, let limit): "\(count) bytes of global memory, more than \(limit)"
        case .tooManyLocals(let count, let limit): "\(count) bytes of local memory, more than \(limit)"
        case .tooLong(let bytes, let limit): "a \(bytes)-byte frame, longer than \(limit)"
        }
    }
}

/// Why bytes from the brick (or a parameter in a command) could not be read. Any input gives a
/// value or this error, never a trap.
public enum EV3DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer bytes than the frame's structure needs.
    case truncated(needed: Int, got: Int)
    /// The length field disagrees with the bytes that follow it.
    case lengthMismatch(field: Int, actual: Int)
    /// A length field no brick sends: the stream is out of step and must be reset.
    case frameLength(Int, allowed: ClosedRange<Int>)
    /// A type byte that is neither a direct nor a system reply.
    case unknownType(UInt8)
    /// The reply answers another request.
    case counterMismatch(expected: UInt16, got: UInt16)
    /// The reply carries another amount of global memory than the command reserved.
    case globalsSize(expected: Int, got: Int)
    /// The brick answered with an error; its global memory holds nothing trustworthy.
    case replyError(counter: UInt16)
    /// A system reply with an error status.
    case systemError(code: UInt8, status: UInt8)
    /// A handle read from a batch it was not made by.
    case foreignHandle
    /// A parameter's first byte uses a form this codec does not know (handles, addresses).
    case unsupportedParameter(UInt8, offset: Int)
    /// A string parameter without its terminating NUL.
    case unterminatedString(offset: Int)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .truncated(let needed, let got): "truncated: \(got) bytes, \(needed) needed"
        case .lengthMismatch(let field, let actual): "length field \(field) but \(actual) bytes follow"
        case .frameLength(let length, let allowed):
            "length field \(length) outside \(allowed.lowerBound)...\(allowed.upperBound)"
        case .unknownType(let type): "unknown reply type 0x\(Hex.byte(type, uppercase: true))"
        case .counterMismatch(let expected, let got): "reply to message \(got), expected \(expected)"
        case .globalsSize(let expected, let got): "\(got) bytes of global memory, expected \(expected)"
        case .replyError(let counter): "the brick answered message \(counter) with an error"
        case .systemError(let code, let status):
            "system command 0x\(Hex.byte(code, uppercase: true)) failed with status 0x\(Hex.byte(status, uppercase: true))"
        case .foreignHandle: "the handle belongs to another batch"
        case .unsupportedParameter(let byte, let offset): "unsupported parameter 0x\(Hex.byte(byte, uppercase: true)) at byte \(offset)"
        case .unterminatedString(let offset): "string at byte \(offset) has no terminating NUL"
        }
    }
}
