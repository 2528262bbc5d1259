import CoreMetrics

/// What the BlueZ client counts for `/metrics`, through swift-metrics.
enum BlueZMetrics {
    /// BlueZ signals (adverts among them) dropped at the mailbox's bound because the bridge fell behind.
    static let signalsDropped = Counter(label: "things2mqtt_ble_adverts_dropped_total")
}
