public import AsyncHTTPClient
public import BridgeCore
import FoundationEssentials
public import Support
public import LIFXModels
import NIOCore
import NIOHTTP1

/// The LIFX HTTP API (https://api.lifx.com/v1 or a simulator). Stateless; the driver owns pacing.
public struct LIFXClient: Sendable {
    let baseURL: String
    let token: String
    let http: HTTPClient
    /// Stamps each response, for the rate limit's reset (see `RateReset`).
    let clock: WallClock
    let timeout: TimeAmount

    /// Creates a client; `baseURL` is e.g. `https://api.lifx.com/v1`.
    public init(
        baseURL: String, token: String, http: HTTPClient = .shared, timeoutSeconds: Int64 = 10, clock: WallClock = .system
    ) {
        self.clock = clock
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.token = token
        self.http = http
        self.timeout = .seconds(timeoutSeconds)
    }

    /// `GET /lights/:selector`.
    public func listLights(_ selector: String = "all") async throws(LIFXError) -> LIFXReply<[LIFXLight]> {
        try await decode(.GET, "/lights/\(Self.encode(selector))", body: nil)
    }

    /// `PUT /lights/:selector/state`.
    public func setState(_ selector: String, _ change: LIFXStateChange) async throws(LIFXError) -> LIFXReply<LIFXResults> {
        try await decode(.PUT, "/lights/\(Self.encode(selector))/state", body: change.body())
    }

    /// `PUT /lights/states`: several selectors in one request.
    public func setStates(_ entries: [(selector: String, change: LIFXStateChange)]) async throws(LIFXError)
        -> LIFXReply<LIFXBatchResults>
    {
        let states = entries.map { $0.change.body(selector: $0.selector) }
        return try await decode(.PUT, "/lights/states", body: ["states": .array(states)])
    }

    /// `POST /lights/:selector/toggle`.
    public func toggle(_ selector: String, duration: Double? = nil) async throws(LIFXError) -> LIFXReply<LIFXResults> {
        try await decode(.POST, "/lights/\(Self.encode(selector))/toggle", body: .object(duration.map { ["duration": .number($0)] } ?? [:]))
    }

    /// `POST /lights/:selector/state/delta`.
    public func delta(_ selector: String, _ body: [String: JSONValue]) async throws(LIFXError) -> LIFXReply<LIFXResults> {
        try await decode(.POST, "/lights/\(Self.encode(selector))/state/delta", body: .object(body))
    }

    /// `POST /lights/:selector/effects/<name>` (breathe, pulse, move, morph, flame, clouds, sunrise, sunset, off).
    public func effect(_ name: String, _ selector: String, _ body: JSONValue) async throws(LIFXError) -> LIFXReply<LIFXResults> {
        try await decode(.POST, "/lights/\(Self.encode(selector))/effects/\(name)", body: body)
    }

    /// `GET /scenes`.
    public func listScenes() async throws(LIFXError) -> LIFXReply<[LIFXScene]> {
        try await decode(.GET, "/scenes", body: nil)
    }

    /// `PUT /scenes/scene_id:<uuid>/activate`.
    public func activateScene(_ uuid: String, duration: Double? = nil) async throws(LIFXError) -> LIFXReply<LIFXResults> {
        try await decode(.PUT, "/scenes/scene_id:\(Self.encode(uuid))/activate", body: .object(duration.map { ["duration": .number($0)] } ?? [:]))
    }

    /// `GET /color?string=…`: the HSBK the API reads from a colour string.
    public func validateColor(_ string: String) async throws(LIFXError) -> LIFXReply<JSONValue> {
        let query = Self.encode(string, keeping: Self.alphanumerics)
        return try await decode(.GET, "/color?string=\(query)", body: nil)
    }

    private func decode<T: Decodable & Sendable>(_ method: HTTPMethod, _ path: String, body: JSONValue?)
        async throws(LIFXError) -> LIFXReply<T>
    {
        let (bytes, rate) = try await send(method, path, body: body)
        do {
            return LIFXReply(value: try JSONDecoder().decode(T.self, from: Data(bytes)), rate: rate)
        } catch {
            throw .malformed("\(method) \(path.split(separator: "?").first ?? ""): \(error)")
        }
    }

    /// Sends one request and maps the status; the token goes only into the header.
    func send(_ method: HTTPMethod, _ path: String, body: JSONValue?) async throws(LIFXError) -> ([UInt8], RateHeaders) {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "things2mqtt")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body.jsonBytes))
        }
        let response: HTTPClientResponse
        let bytes: [UInt8]
        let receivedAt: Double
        LIFXMetrics.requests.increment()
        do {
            response = try await http.execute(request, timeout: timeout)
            receivedAt = clock.now
            bytes = Array(buffer: try await response.body.collect(upTo: 32 * 1024 * 1024))
        } catch let error as HTTPClientError where [.deadlineExceeded, .readTimeout, .connectTimeout].contains(error) {
            LIFXMetrics.failures.increment()
            throw .timeout
        } catch {
            LIFXMetrics.failures.increment()
            throw .transport(Self.describe(error))
        }
        let rate = RateHeaders(
            limit: response.headers.first(name: "X-RateLimit-Limit").flatMap { Int($0) },
            remaining: response.headers.first(name: "X-RateLimit-Remaining").flatMap { Int($0) },
            reset: RateReset.onHostClock(
                reset: response.headers.first(name: "X-RateLimit-Reset"), date: response.headers.first(name: "Date"),
                receivedAt: receivedAt))
        if let remaining = rate.remaining { LIFXMetrics.rateRemaining.record(remaining) }
        switch response.status.code {
        case 200..<300: return (bytes.isEmpty ? Array("{\"results\":[]}".utf8) : bytes, rate)
        case 429:
            LIFXMetrics.rateLimited.increment()
            throw .rateLimited(reset: rate.reset)
        case 401:
            LIFXMetrics.failures.increment()
            throw .unauthorized
        case 500..<600:
            LIFXMetrics.failures.increment()
            throw .server(status: Int(response.status.code))
        default:
            LIFXMetrics.failures.increment()
            let summary = (try? JSONDecoder().decode(LIFXErrorBody.self, from: Data(bytes)))?.summary
            throw .rejected(status: Int(response.status.code), message: summary ?? response.status.reasonPhrase)
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError { return String(describing: error) }
        return String(describing: type(of: error)) + ": " + String(describing: error)
    }

    private static let alphanumerics = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    // RFC 3986's unreserved characters and the sub-delimiters a path segment may hold as they are (all but ";", which
    // Foundation's urlPathAllowed escapes too, and LIFX's API has always received escaped).
    private static let segmentCharacters = alphanumerics.union("-._~!$&'()*+,=:@".utf8)

    /// Percent-encodes one path segment (a selector).
    static func encode(_ segment: String) -> String { encode(segment, keeping: segmentCharacters) }

    /// Percent-encodes every UTF-8 byte of `text` but those `kept`.
    private static func encode(_ text: String, keeping kept: Set<UInt8>) -> String {
        var encoded = ""
        for byte in text.utf8 {
            if kept.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + Hex.byte(byte, uppercase: true)
            }
        }
        return encoded
    }
}
