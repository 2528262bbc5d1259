import CoreMetrics
import Prometheus

/// The counters the drivers keep through swift-metrics (BLE adverts, LIFX requests, EV3 frames, reconnects…),
/// shown by `/metrics` after the frontend's own. Drivers never see the frontend: they count through
/// swift-metrics, and the daemon points swift-metrics here once at start. A process that does not (the tests'
/// drivers in process) counts nothing, and `/metrics` shows the frontend's own only.
public enum ProcessMetrics {
    static let registry = PrometheusCollectorRegistry()

    /// Makes swift-metrics' counters and gauges land in `/metrics`; once per process, before any driver is made.
    public static func bootstrap() { MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry)) }
}
