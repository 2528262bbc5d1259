import Support

/// A device's key for its encrypted adverts ("bindkey"): 16 bytes (MiBeacon v4/v5, BTHome) or 12 (MiBeacon
/// v2/v3). It prints as `***`, so no log line or error message can show it.
public struct BindKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The key's bytes, for the decoders only.
    let bytes: [UInt8]
    /// Decrypts with the key, keeping libcrypto's context between adverts (16-byte keys).
    let opener: CCMOpener

    /// A key from 24 or 32 hex digits (spaces, colons and dashes between them are allowed).
    public init(hex text: String) throws(BindKeyError) {
        let digits = text.filter { !" :-".contains($0) }
        guard digits.allSatisfy(\.isHexDigit) else { throw .notHex }
        // Hex's own errors quote the text, which is a secret here.
        guard digits.count % 2 == 0, let bytes = try? Hex.bytes(digits) else { throw .wrongLength(digits.count) }
        try self.init(bytes: bytes)
    }

    /// A key from its bytes.
    public init(bytes: [UInt8]) throws(BindKeyError) {
        guard bytes.count == 16 || bytes.count == 12 else { throw .wrongLength(bytes.count * 2) }
        self.bytes = bytes
        opener = CCMOpener(key: bytes)
    }

    /// Equal when the bytes are.
    public static func == (lhs: BindKey, rhs: BindKey) -> Bool { lhs.bytes == rhs.bytes }

    /// Hashes the bytes.
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    /// The 16-byte AES key: a 12-byte MiBeacon v2/v3 key is widened with the fixed bytes `8D 3D 3C 97` after its
    /// sixth byte.
    var aesKey: [UInt8] {
        bytes.count == 16 ? bytes : Array(bytes[0..<6]) + [0x8D, 0x3D, 0x3C, 0x97] + Array(bytes[6...])
    }

    /// The key as hex digits, for the one place that keeps it (the bridge's alias file).
    public var hex: String { Hex.string(bytes) }

    /// Always `***`.
    public var description: String { "***" }
    /// Always `***`.
    public var debugDescription: String { "***" }
}

/// Why text is not a bindkey.
public enum BindKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Characters other than hex digits.
    case notHex
    /// A number of hex digits other than 32 or 24.
    case wrongLength(Int)

    /// One line for a config error.
    public var description: String {
        switch self {
        case .notHex: "a bindkey is 32 hex digits (24 for MiBeacon v2/v3), and this is not hex"
        case .wrongLength(let digits): "a bindkey is 32 hex digits (24 for MiBeacon v2/v3), not \(digits)"
        }
    }
}
