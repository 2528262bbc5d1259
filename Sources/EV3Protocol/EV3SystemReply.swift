/// The answer to a system command: `len cc cc 03|05 SYSCMD STATUS payload…`.
public struct EV3SystemReply: Sendable, Hashable {
    /// The echoed message counter.
    public let counter: UInt16
    /// `05` SYSTEM_REPLY_ERROR rather than `03` SYSTEM_REPLY.
    public let isError: Bool
    /// The command this answers.
    public let code: EV3SystemCommandCode
    /// The command's status.
    public let status: EV3SystemStatus
    /// The bytes after the status.
    public let payload: [UInt8]

    /// Parses one whole frame; throws for short frames, a wrong length field and other type bytes.
    public init(frame: [UInt8]) throws(EV3DecodingError) {
        let type = try checkedType(frame, minimum: 7)
        guard type == 0x03 || type == 0x05 else { throw .unknownType(type) }
        self.counter = readLittleEndian(UInt16.self, frame[2...])
        self.isError = type == 0x05
        self.code = EV3SystemCommandCode(rawValue: frame[5])
        self.status = EV3SystemStatus(rawValue: frame[6])
        self.payload = Array(frame[7...])
    }

    /// Creates a reply, as a simulator would send it.
    public init(counter: UInt16, isError: Bool, code: EV3SystemCommandCode, status: EV3SystemStatus, payload: [UInt8]) {
        self.counter = counter
        self.isError = isError
        self.code = code
        self.status = status
        self.payload = payload
    }

    /// The frame as the brick sends it.
    public var bytes: [UInt8] {
        var frame: [UInt8] = []
        appendLittleEndian(UInt16(truncatingIfNeeded: 5 + payload.count), to: &frame)
        appendLittleEndian(counter, to: &frame)
        frame += [isError ? 0x05 : 0x03, code.rawValue, status.rawValue]
        return frame + payload
    }
}

/// One part of a folder listing, from a LIST_FILES or CONTINUE_LIST_FILES reply.
public struct EV3FileList: Sendable, Hashable {
    /// The whole listing's size, sent with the first part only.
    public let totalSize: UInt32?
    /// The handle to continue or close the listing with (`FF` when the folder was empty).
    public let handle: UInt8
    /// This part of the listing.
    public let data: [UInt8]

    /// Reads a successful listing reply; `END_OF_FILE` (the last part) also counts as success.
    public init(reply: EV3SystemReply) throws(EV3DecodingError) {
        guard !reply.isError, reply.status == .success || reply.status == .endOfFile else {
            throw .systemError(code: reply.code.rawValue, status: reply.status.rawValue)
        }
        let payload = reply.payload
        switch reply.code {
        case .listFiles:
            guard payload.count >= 5 else { throw .truncated(needed: 12, got: 7 + payload.count) }
            totalSize = readLittleEndian(UInt32.self, payload)
            handle = payload[4]
            data = Array(payload[5...])
        case .continueListFiles:
            guard payload.count >= 1 else { throw .truncated(needed: 8, got: 7 + payload.count) }
            totalSize = nil
            handle = payload[0]
            data = Array(payload[1...])
        default: throw .unknownType(reply.code.rawValue)
        }
    }

    /// The entries in a complete listing: each line is a folder (`name/`) or a file
    /// (32 hex digits of MD5, a space, 8 hex digits of size, a space, the name).
    public static func entries(_ listing: [UInt8]) -> [EV3FileEntry] {
        listing.split(separator: UInt8(ascii: "\n")).compactMap { line in
            let text = String(decoding: line, as: UTF8.self)
            if text.hasSuffix("/") { return .folder(String(text.dropLast())) }
            let fields = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0].count == 32, let size = UInt32(fields[1], radix: 16) else { return nil }
            return .file(name: String(fields[2]), size: size, md5: String(fields[0]))
        }
    }
}

/// A line of a folder listing.
public enum EV3FileEntry: Sendable, Hashable {
    /// A sub-folder, without its trailing `/`.
    case folder(String)
    /// A file with its size in bytes and MD5 as hex.
    case file(name: String, size: UInt32, md5: String)
}
