public import Foundation

/// A request the simulator answered, kept for test assertions.
public struct RecordedRequest: Sendable {
    /// HTTP method, e.g. "PUT".
    public var method: String
    /// Path and query exactly as received.
    public var uri: String
    /// Percent-decoded path without the query.
    public var path: String
    /// Value of the Content-Type header, if any.
    public var contentType: String?
    /// Raw body text.
    public var body: String
    /// Status code the simulator answered with.
    public var status: Int
    /// When the request arrived, before any simulated latency.
    public var receivedAt: Date

    /// Creates a record.
    public init(
        method: String,
        uri: String,
        path: String,
        contentType: String?,
        body: String,
        status: Int,
        receivedAt: Date
    ) {
        self.method = method
        self.uri = uri
        self.path = path
        self.contentType = contentType
        self.body = body
        self.status = status
        self.receivedAt = receivedAt
    }

    /// Decodes the body: JSON via JSONSerialization, form bodies as `[String: String]`, nil if empty or unreadable.
    public func jsonBody() -> Any? {
        if isForm {
            return FormDecoding.fields(body).reduce(into: [String: String]()) { $0[$1.0] = $1.1 }
        }
        guard !body.isEmpty, let data = body.data(using: .utf8) else { return nil }
        return try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }

    /// Whether the body was sent as an HTML form rather than JSON.
    var isForm: Bool {
        contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
    }
}
