import Foundation

/// A request as the HTTP layer hands it over.
struct IncomingRequest: Sendable {
    var method: String
    var uri: String
    var authorization: String?
    var contentType: String?
    var body: String
    /// When the last byte arrived, before any simulated latency.
    var receivedAt: Date
}

/// Everything mutable about the simulated cloud; lives inside one Mutex.
struct SimulatorState: Sendable {
    var token: String
    var lights: [SimulatedLight]
    var scenes: [SimulatedScene]
    var limiter: RateLimiter
    var accountUUID = "cc7e0336-43c8-4f00-b874-830690884adc"
    var requests: [RecordedRequest] = []
    var requestHistoryLimit = 100_000
    var pendingFailures = 0
    var failureStatus = 500
    var latency: Duration = .zero
    /// How far the simulated cloud's clock is from this host's, in whole seconds: the `Date` and
    /// `X-RateLimit-Reset` headers are shifted by it, as from a server whose clock is off.
    var clockOffset = 0

    /// Authenticates, rate-limits, routes and records one request.
    mutating func handle(_ request: IncomingRequest, now: Date) -> APIResponse {
        let (path, query) = Self.split(request.uri)
        var response = gateAndRoute(request, path: path, query: query, now: now)
        record(request, path: path, status: response.status)
        let serverNow = Int(now.timeIntervalSince1970.rounded(.down)) + clockOffset
        response.headers.append(("Date", HTTPDateFormat.string(epoch: serverNow)))
        return response
    }

    private mutating func gateAndRoute(
        _ request: IncomingRequest, path: [String]?, query: Substring, now: Date
    ) -> APIResponse {
        let presented = Self.bearerToken(request.authorization)
        guard let presented, presented == token else {
            var response = APIResponse.error(401, presented == nil ? "Token required" : "Invalid token")
            response.headers = limiter.peek(token: presented, now: now).headers(clockOffset: clockOffset)
            return response
        }
        let budget = limiter.consume(token: presented, now: now)
        var response: APIResponse
        if !budget.allowed {
            response = .error(429, "Rate limit exceeded")
        } else if pendingFailures > 0 {
            pendingFailures -= 1
            response = .error(failureStatus, Self.failureMessage(failureStatus))
        } else if let path {
            do {
                response = try route(request, path: path, query: query, now: now)
            } catch {
                response = error.response
            }
        } else {
            response = .error(400, "Malformed percent-encoding in path")
        }
        response.headers += budget.headers(clockOffset: clockOffset)
        return response
    }

    private mutating func record(_ request: IncomingRequest, path: [String]?, status: Int) {
        let decodedPath = path.map { "/" + $0.joined(separator: "/") } ?? request.uri
        requests.append(RecordedRequest(
            method: request.method, uri: request.uri, path: decodedPath,
            contentType: request.contentType, body: request.body, status: status,
            receivedAt: request.receivedAt
        ))
        // Trim in batches so a long benchmark does not pay an O(n) shift per request.
        if requests.count > requestHistoryLimit + requestHistoryLimit / 10 + 1 {
            requests.removeFirst(requests.count - requestHistoryLimit)
        }
    }

    /// Percent-decoded path segments (nil if malformed) and the raw query.
    static func split(_ uri: String) -> (path: [String]?, query: Substring) {
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPath = parts[0]
        let query = parts.count > 1 ? parts[1] : ""
        var segments: [String] = []
        for raw in rawPath.split(separator: "/", omittingEmptySubsequences: true) {
            guard let decoded = URLCoding.percentDecode(raw) else { return (nil, query) }
            segments.append(decoded)
        }
        return (segments, query)
    }

    /// Accepts `Bearer <token>` and, as LIFX also does, Basic auth with the token as user name.
    static func bearerToken(_ header: String?) -> String? {
        guard let header = header?.trimmingWhitespace(), !header.isEmpty else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let credential = String(parts[1]).trimmingWhitespace()
        switch parts[0].lowercased() {
        case "bearer":
            return credential.isEmpty ? nil : credential
        case "basic":
            guard let data = Data(base64Encoded: credential),
                  let text = String(data: data, encoding: .utf8) else { return "" }
            return String(text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0])
        default:
            return nil
        }
    }

    private static func failureMessage(_ status: Int) -> String {
        switch status {
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 523: "Origin Is Unreachable"
        case 500..<600: "Internal Server Error"
        default: "Injected failure"
        }
    }
}
