import CoreMetrics

/// What the brick controllers count for `/metrics`, through swift-metrics, over every brick.
enum BrickMetrics {
    /// Poll cycles started (each is one or more requests to the brick).
    static let polls = Counter(label: "things2mqtt_ev3_polls_total")
    /// Poll results dropped because they hold a value no brick reports (a reply damaged on its way).
    static let implausible = Counter(label: "things2mqtt_ev3_implausible_replies_total")
}
