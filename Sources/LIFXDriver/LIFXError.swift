/// Why a LIFX API call failed. Messages never contain the token.
public enum LIFXError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 401: the token was refused.
    case unauthorized
    /// 429: rate limited until `reset` (epoch seconds by the host's clock).
    case rateLimited(reset: Double?)
    /// 5xx: worth retrying.
    case server(status: Int)
    /// No answer in time.
    case timeout
    /// The connection failed.
    case transport(String)
    /// 4xx other than 401 and 429: the request itself is wrong; retrying will not help.
    case rejected(status: Int, message: String)
    /// The answer was not what the API documents.
    case malformed(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .unauthorized: "the LIFX cloud refused the token (401)"
        case .rateLimited: "rate limited by the LIFX cloud (429)"
        case .server(let status): "LIFX cloud error (\(status))"
        case .timeout: "the LIFX cloud did not answer in time"
        case .transport(let reason): "cannot reach the LIFX cloud: \(reason)"
        case .rejected(let status, let message): "the LIFX cloud rejected the request (\(status)): \(message)"
        case .malformed(let reason): "unexpected answer from the LIFX cloud: \(reason)"
        }
    }

    /// Whether sending the same request again later may succeed.
    public var isRetryable: Bool {
        switch self {
        case .server, .timeout, .transport, .rateLimited: true
        case .unauthorized, .rejected, .malformed: false
        }
    }
}

/// The rate-limit figures a response carried.
public struct RateHeaders: Sendable, Equatable {
    public var limit: Int?
    public var remaining: Int?
    /// Epoch seconds by the host's clock, translated from the cloud's through its `Date` header.
    public var reset: Double?
}

/// A decoded answer with its rate-limit figures.
public struct LIFXReply<Value: Sendable>: Sendable {
    public var value: Value
    public var rate: RateHeaders
}
