import CoreMetrics

/// What the LIFX client counts for `/metrics`, through swift-metrics.
enum LIFXMetrics {
    /// HTTP requests sent to the cloud.
    static let requests = Counter(label: "things2mqtt_lifx_requests_total")
    /// Answers of 429 (rate limited).
    static let rateLimited = Counter(label: "things2mqtt_lifx_rate_limited_total")
    /// Requests that failed otherwise: timeouts, transport errors, other error statuses.
    static let failures = Counter(label: "things2mqtt_lifx_request_failures_total")
    /// `X-RateLimit-Remaining` of the latest answer that had one: requests left in the window.
    static let rateRemaining = Gauge(label: "things2mqtt_lifx_rate_remaining")
}
