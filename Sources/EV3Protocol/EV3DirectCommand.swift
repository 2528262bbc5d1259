/// A direct command: byte codes the brick's VM runs at once, with the global memory its reply returns.
///
/// Wire layout: length (u16 LE, bytes after itself), message counter (u16 LE, echoed), type (`00` with a
/// reply, `80` without), the variable header `locals << 10 | globals` (u16 LE), then the byte codes.
public struct EV3DirectCommand: Sendable, Hashable {
    /// `MAX_COMMAND_GLOBALS` in `lms2012.h`; the header's ten bits could carry more, the firmware refuses it.
    public static let maxGlobals = 1021
    /// The header's six bits (the firmware's own limit, 64, does not fit them).
    public static let maxLocals = 63
    /// `MAX_MSG_SIZE` in `c_com.h`, including the length field.
    public static let maxFrameBytes = 1024

    /// The message counter the reply echoes.
    public let counter: UInt16
    /// `00` (the brick answers) or `80` (it never answers, not even an error).
    public let replyRequested: Bool
    /// Bytes of global memory: the reply carries exactly this many.
    public let globalSize: Int
    /// Bytes of local memory, scratch space the reply does not carry.
    public let localSize: Int
    /// The instructions, already encoded.
    public let bytecode: [UInt8]

    /// Checks the limits the firmware enforces, so a command it would refuse is never built.
    public init(
        counter: UInt16, replyRequested: Bool, globalSize: Int, localSize: Int = 0, bytecode: [UInt8]
    ) throws(EV3EncodingError) {
        guard !bytecode.isEmpty else { throw .empty }
        guard (0...Self.maxGlobals).contains(globalSize) else {
            throw .tooManyGlobals(globalSize, limit: Self.maxGlobals)
        }
        guard (0...Self.maxLocals).contains(localSize) else { throw .tooManyLocals(localSize, limit: Self.maxLocals) }
        let frameBytes = 7 + bytecode.count
        guard frameBytes <= Self.maxFrameBytes else { throw .tooLong(bytes: frameBytes, limit: Self.maxFrameBytes) }
        self.counter = counter
        self.replyRequested = replyRequested
        self.globalSize = globalSize
        self.localSize = localSize
        self.bytecode = bytecode
    }

    /// The type byte: `00` DIRECT_COMMAND_REPLY or `80` DIRECT_COMMAND_NO_REPLY.
    public var type: UInt8 { replyRequested ? 0x00 : 0x80 }

    /// The variable header as sent: byte 5 is the low eight bits of the globals, byte 6 the locals
    /// shifted left by two above the globals' top two bits.
    public var variableHeader: [UInt8] {
        [UInt8(globalSize & 0xFF), UInt8(localSize << 2 | globalSize >> 8)]
    }

    /// The whole frame, length field first.
    public var bytes: [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(7 + bytecode.count)
        appendLittleEndian(UInt16(5 + bytecode.count), to: &frame)
        appendLittleEndian(counter, to: &frame)
        frame.append(type)
        frame += variableHeader
        frame += bytecode
        return frame
    }
}
