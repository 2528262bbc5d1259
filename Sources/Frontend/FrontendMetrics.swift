import Bridge
import BridgeCore
import Prometheus
import Synchronization

/// `/metrics` in the Prometheus text format. The bridge keeps its own counts (the inbox's, the tap's) and its
/// retained `bridge/devices` and `bridge/info`; a scrape reads them, so nothing is counted twice or on the
/// bridge's path. The drivers' counters follow (`ProcessMetrics`).
final class FrontendMetrics: Sendable {
    private struct Seen {
        var received = 0
        var refused = 0
        var published = 0
        var devices: [String: Gauge] = [:]
        var figures: [String: Gauge] = [:]
    }

    private let link: FrontendLink
    private let registry = PrometheusCollectorRegistry()
    private let seen = Mutex(Seen())
    private let received: Counter
    private let refused: Counter
    private let published: Counter
    private let inboxDepth: Gauge
    private let connected: Gauge
    private let sockets: Gauge

    init(link: FrontendLink) {
        self.link = link
        received = registry.makeCounter(
            descriptor: Self.name("mqtt_messages_received", unit: "total", "Messages delivered to the bridge by the broker or a web page"))
        refused = registry.makeCounter(
            descriptor: Self.name("mqtt_messages_refused", unit: "total", "Delivered messages the bridge's inbox refused at its bounds"))
        published = registry.makeCounter(descriptor: Self.name("mqtt_messages_published", unit: "total", "Messages the bridge published"))
        inboxDepth = registry.makeGauge(descriptor: Self.name("inbox_depth", "Inputs waiting in the bridge's inbox"))
        connected = registry.makeGauge(descriptor: Self.name("mqtt_connected", "1 while connected to the broker"))
        sockets = registry.makeGauge(descriptor: Self.name("frontend_websockets", "Web pages connected to the api websocket"))
    }

    static func name(_ metric: String, unit: String = "", _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "things2mqtt", metricName: metric, unitName: unit, helpText: help)
    }

    /// The bridge's own documents, which the limits for what clients send do not fit.
    static let own = JSONLimits(maxBytes: .max, maxDepth: 256)

    /// The current values as Prometheus text.
    func render() -> String {
        let counts = link.inbox.counts
        let devices = link.tap.retained("bridge/devices").flatMap { try? JSONValue.parse($0, limits: Self.own) }
        let info = link.tap.retained("bridge/info").flatMap { try? JSONValue.parse($0, limits: Self.own) }
        seen.withLock { seen in
            received.increment(by: Int64(max(0, counts.received - seen.received)))
            refused.increment(by: Int64(max(0, counts.refused - seen.refused)))
            published.increment(by: Int64(max(0, link.tap.publishedCount - seen.published)))
            seen.received = counts.received
            seen.refused = counts.refused
            seen.published = link.tap.publishedCount
            inboxDepth.set(to: Double(counts.depth))
            connected.set(to: link.isConnected() ? 1 : 0)
            sockets.set(to: Double(link.tap.readerCount))
            update(
                &seen.devices, with: Self.devicesByStatus(devices),
                name: Self.name("devices", "Devices of each integration by availability"), labels: ("integration", "status"))
            update(
                &seen.figures, with: Self.figures(info),
                name: Self.name("integration_figure", "Each integration's own figures (budgets, adverts, frames…)"),
                labels: ("integration", "figure"))
        }
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        ProcessMetrics.registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Sets one gauge per label pair; a pair that went away reads 0 rather than its last value.
    private func update(
        _ gauges: inout [String: Gauge], with values: [LabelPair: Double], name: MetricNameDescriptor, labels: (String, String)
    ) {
        let current = Set(values.keys.map(\.key))
        for (key, gauge) in gauges where !current.contains(key) { gauge.set(to: 0) }
        for (pair, value) in values {
            let gauge =
                gauges[pair.key]
                ?? registry.makeGauge(descriptor: name, labels: [(labels.0, pair.first), (labels.1, pair.second)])
            gauges[pair.key] = gauge
            gauge.set(to: value)
        }
    }

    struct LabelPair: Hashable {
        var first: String
        var second: String
        var key: String { first + "\u{0}" + second }
    }

    /// Devices of each integration by availability (`online`, `offline`, `unknown`), from `bridge/devices`.
    static func devicesByStatus(_ devices: JSONValue?) -> [LabelPair: Double] {
        guard case .array(let entries)? = devices else { return [:] }
        var counts: [LabelPair: Double] = [:]
        for entry in entries {
            guard let integration = entry["integration"]?.stringValue else { continue }
            counts[LabelPair(first: integration, second: entry["status"]?.stringValue ?? "unknown"), default: 0] += 1
        }
        return counts
    }

    /// Each integration's numeric figures (LIFX budget, BLE adverts, EV3 frames…), from `bridge/info`.
    static func figures(_ info: JSONValue?) -> [LabelPair: Double] {
        guard let integrations = info?["integrations"]?.objectValue else { return [:] }
        var values: [LabelPair: Double] = [:]
        for (integration, entry) in integrations {
            for (name, value) in entry.objectValue ?? [:] {
                if let number = value.doubleValue { values[LabelPair(first: integration, second: name)] = number }
                if let flag = value.boolValue { values[LabelPair(first: integration, second: name)] = flag ? 1 : 0 }
            }
        }
        return values
    }
}
