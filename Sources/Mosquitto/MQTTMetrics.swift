import CoreMetrics

/// What the MQTT client counts for `/metrics`, through swift-metrics.
enum MQTTMetrics {
    /// Connections to the broker after the first.
    static let reconnects = Counter(label: "things2mqtt_mqtt_reconnects_total")
}
