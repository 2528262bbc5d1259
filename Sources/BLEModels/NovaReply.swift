import Support

/// What a notification on the flash's response characteristic (`FFF4`) says.
public enum NovaReply: Sendable, Hashable {
    /// `(xx:A)`: the request with id `xx` was carried out.
    case ack(id: UInt8)
    /// Anything else, with the reason, for a log line; never trusted as an acknowledgement.
    case notAnAck(NotAnAck)

    /// Why a notification is not an acknowledgement.
    public enum NotAnAck: Sendable, Hashable {
        /// No bytes at all.
        case empty
        /// Not six bytes long, the only length an ack has.
        case wrongLength(Int)
        /// Six bytes, but not `(`, two characters, `:A)`.
        case wrongShape
        /// The shape of an ack, but the id is not two hex digits.
        case idNotHex
    }

    /// Parses the bytes of one notification; any input gives a result, never a trap. The whole notification
    /// must be the ack (the SDKs' pattern is `\(([0-9A-Za-z]{2}):A\)`); hex digits in either case.
    public init(_ bytes: some Collection<UInt8>) {
        guard !bytes.isEmpty else {
            self = .notAnAck(.empty)
            return
        }
        guard bytes.count == 6 else {
            self = .notAnAck(.wrongLength(bytes.count))
            return
        }
        let b = Array(bytes)
        guard b[0] == UInt8(ascii: "("), b[3] == UInt8(ascii: ":"), b[4] == UInt8(ascii: "A"), b[5] == UInt8(ascii: ")")
        else {
            self = .notAnAck(.wrongShape)
            return
        }
        guard let high = Hex.digit(b[1]), let low = Hex.digit(b[2]) else {
            self = .notAnAck(.idNotHex)
            return
        }
        self = .ack(id: high << 4 | low)
    }

    /// The acknowledged request id, if this is an ack.
    public var ackID: UInt8? {
        if case .ack(let id) = self { return id }
        return nil
    }
}
