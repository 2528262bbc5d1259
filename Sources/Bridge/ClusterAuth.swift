public import BridgeCore
import COpenSSL
import Support

/// Authenticates the cluster's messages with `cluster.secret`: each payload (a JSON object) carries `auth`, the
/// time it was signed and an HMAC-SHA256 (libcrypto) over the topic, that time and the payload without `auth` as
/// `JSONValue` writes it (keys sorted, so the receiver rebuilds the same bytes from what it parsed).
public struct ClusterAuth: Sendable {
    /// What a message proved.
    public enum Verdict: Sendable, Equatable {
        /// Authentic and signed within the window: the payload without `auth`.
        case fresh(JSONValue)
        /// Authentic but signed outside the window (a replay, a retained copy, a will): the payload without `auth`.
        case stale(JSONValue)
        /// No `auth`, a wrong MAC, or not an object: nobody holding the secret wrote it.
        case unauthenticated
    }

    private let key: [UInt8]
    /// How far a message's signing time may be from this bridge's clock, either way.
    public let window: Duration

    /// A signer and checker for `secret`; `window` is the clock difference accepted.
    public init(secret: String, window: Duration) {
        key = Array(secret.utf8)
        self.window = window
    }

    /// The window for a cluster: a minute of clock difference between bridges, plus one renewal, by which a
    /// retained presence (said again every renewal) may be older than its replay.
    public static func window(renewal: Duration) -> Duration { .seconds(60) + renewal }

    /// The payload with its `auth`, signed at `milliseconds` since 1970; a payload that is not an object is
    /// returned as it is (the cluster sends none).
    public func sign(_ payload: JSONValue, topic: String, at milliseconds: Int64) -> JSONValue {
        guard case .object(var fields) = payload, let mac = mac(topic: topic, time: milliseconds, body: payload) else {
            return payload
        }
        fields[Self.field] = ["t": .number(Double(milliseconds)), "mac": .string(Hex.string(mac))]
        return .object(fields)
    }

    /// Checks a payload that arrived on `topic` at `milliseconds` since 1970.
    public func verify(_ payload: JSONValue?, topic: String, at milliseconds: Int64) -> Verdict {
        guard case .object(var fields)? = payload, let auth = fields.removeValue(forKey: Self.field),
            let time = auth["t"]?.integer(in: Int64(0)...(1 << 53)), let text = auth["mac"]?.stringValue,
            text.utf8.count == 64, let given = try? Hex.bytes(text)
        else { return .unauthenticated }
        let body = JSONValue.object(fields)
        guard let expected = mac(topic: topic, time: time, body: body), Self.equal(expected, given) else {
            return .unauthenticated
        }
        let limit = window.components.seconds * 1000
        return abs(milliseconds - time) <= limit ? .fresh(body) : .stale(body)
    }

    /// The key under which a payload carries its authentication.
    public static let field = "auth"

    /// HMAC-SHA256 of topic, a zero byte, the time in decimal, a zero byte and the body's JSON.
    private func mac(topic: String, time: Int64, body: JSONValue) -> [UInt8]? {
        var message = Array(topic.utf8)
        message.append(0)
        message += Array(String(time).utf8)
        message.append(0)
        message += body.jsonBytes
        var out = [UInt8](repeating: 0, count: 32)
        var length = 0
        let done = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBufferPointer { data in
                out.withUnsafeMutableBufferPointer { output in
                    EVP_Q_mac(
                        nil, "HMAC", nil, "SHA256", nil, keyBytes.baseAddress, keyBytes.count, data.baseAddress, data.count,
                        output.baseAddress, output.count, &length)
                }
            }
        }
        return done != nil && length == 32 ? out : nil
    }

    /// Compares in time independent of where the bytes differ (libcrypto's `CRYPTO_memcmp`).
    static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.withUnsafeBytes { a in rhs.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 } }
    }
}
