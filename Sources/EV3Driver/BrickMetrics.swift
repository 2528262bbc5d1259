import CoreMetrics

/// What the brick controllers count for `/metrics`, through swift-metrics, over every brick.
enum BrickMetrics {
    /// Poll cycles started (each is one or more requests to the brick).
    static let polls = Counter(label: "things2mqtt_ev3_polls_total")
}
