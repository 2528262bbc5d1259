import CoreMetrics

/// What the EV3 links count for `/metrics`, through swift-metrics, over every brick.
enum EV3Metrics {
    static let framesSent = Counter(label: "things2mqtt_ev3_frames_sent_total")
    static let framesReceived = Counter(label: "things2mqtt_ev3_frames_received_total")
    /// Requests the brick did not answer in time.
    static let timeouts = Counter(label: "things2mqtt_ev3_timeouts_total")
    /// Connections to a brick after its link's first.
    static let reconnects = Counter(label: "things2mqtt_ev3_reconnects_total")
}
