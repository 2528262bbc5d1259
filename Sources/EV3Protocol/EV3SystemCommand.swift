/// A system command: `len cc cc 01|81 SYSCMD payload…`, with no variable header. The brick handles
/// these outside the VM (files, mailboxes).
public struct EV3SystemCommand: Sendable, Hashable {
    /// The message counter the reply echoes.
    public let counter: UInt16
    /// `01` (the brick answers) or `81` (it does not).
    public let replyRequested: Bool
    /// Which command.
    public let code: EV3SystemCommandCode
    /// The bytes after the code.
    public let payload: [UInt8]

    /// Checks that the frame fits the brick's message buffer.
    public init(
        counter: UInt16, replyRequested: Bool = true, code: EV3SystemCommandCode, payload: [UInt8]
    ) throws(EV3EncodingError) {
        let frameBytes = 6 + payload.count
        guard frameBytes <= EV3DirectCommand.maxFrameBytes else {
            throw .tooLong(bytes: frameBytes, limit: EV3DirectCommand.maxFrameBytes)
        }
        self.counter = counter
        self.replyRequested = replyRequested
        self.code = code
        self.payload = payload
    }

    /// The whole frame, length field first.
    public var bytes: [UInt8] {
        var frame: [UInt8] = []
        appendLittleEndian(UInt16(4 + payload.count), to: &frame)
        appendLittleEndian(counter, to: &frame)
        frame += [replyRequested ? 0x01 : 0x81, code.rawValue]
        return frame + payload
    }

    /// LIST_FILES: up to `maxBytes` of the listing of `path` (absolute, or relative to `lms2012/sys`).
    /// The reply is read with `EV3FileList`.
    public static func listFiles(counter: UInt16, path: String, maxBytes: UInt16) throws(EV3EncodingError) -> Self {
        var payload: [UInt8] = []
        appendLittleEndian(maxBytes, to: &payload)
        return try Self(counter: counter, code: .listFiles, payload: payload + zeroTerminated(path, "LIST_FILES path"))
    }

    /// CONTINUE_LIST_FILES: the next `maxBytes` of a listing begun with `listFiles`.
    public static func continueListFiles(
        counter: UInt16, handle: UInt8, maxBytes: UInt16
    ) throws(EV3EncodingError) -> Self {
        var payload: [UInt8] = [handle]
        appendLittleEndian(maxBytes, to: &payload)
        return try Self(counter: counter, code: .continueListFiles, payload: payload)
    }

    /// CLOSE_FILEHANDLE: frees a handle a listing or transfer left open (the handle alone; the hash
    /// `c_com.h` mentions is not checked by the firmware).
    public static func closeFileHandle(counter: UInt16, handle: UInt8) throws(EV3EncodingError) -> Self {
        try Self(counter: counter, code: .closeFileHandle, payload: [handle])
    }
}

/// A string's bytes and a NUL; throws for an empty string or one holding a NUL.
func zeroTerminated(_ text: String, _ what: String) throws(EV3EncodingError) -> [UInt8] {
    guard !text.isEmpty else { throw .invalidString(what, reason: "empty") }
    guard !text.utf8.contains(0) else { throw .invalidString(what, reason: "contains a NUL byte") }
    return Array(text.utf8) + [0]
}
