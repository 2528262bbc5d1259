import CoreMetrics

/// What the BLE driver counts for `/metrics`, through swift-metrics: the daemon's backend (Prometheus) shows
/// them, and a process that bootstraps none (tests with drivers in process) counts nothing.
enum BLEMetrics {
    /// Device changes that carried an advert (signal, service or manufacturer data), admitted or not; what
    /// merged in BlueZ's mailbox during a burst counts once.
    static let advertsReceived = Counter(label: "things2mqtt_ble_adverts_received_total")
    /// Adverts a passive format read.
    static let advertsDecoded = Counter(label: "things2mqtt_ble_adverts_decoded_total")
    /// Adverts from a known device in a format other than its own, ignored (see `TrackedDevice.formats`).
    static let advertsOtherFormat = Counter(label: "things2mqtt_ble_adverts_other_format_total")
    static let connects = Counter(label: "things2mqtt_ble_connects_total")
    static let connectFailures = Counter(label: "things2mqtt_ble_connect_failures_total")
    /// Connections to the system bus after the first (bluetoothd or D-Bus went away).
    static let busReconnects = Counter(label: "things2mqtt_ble_bus_reconnects_total")
}
